import type { CalendarStatusAnswer, TutorProfile } from '@shared/tutors/tutorApi.ts';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { CalendarRange, CheckCircle2, Circle, Clock, DollarSign, Pencil, Users } from 'lucide-react';
import type * as React from 'react';
import { useEffect, useState } from 'react';
import { serverMessage } from '../../app/api.ts';
import { timezoneFact } from '../../app/auth/facts.ts';
import { PageSpinner } from '../../app/auth/PageSpinner.tsx';
import type { User } from '../../app/auth/types.ts';
import { DashboardShell, WelcomeHeader } from '../../app/layout/DashboardShell.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Skeleton } from '../../components/parts.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { NotificationSettingsCard } from '../notices/NotificationSettingsCard.tsx';
import { TutorReviewsCard } from '../reviews/ReviewLists.tsx';
import { CalendarFeedCard } from '../sessions/CalendarFeedCard.tsx';
import { tutorKeys, tutorsApi } from './api.ts';
import { AvailabilityInstructions, CalendarStatusSection, useCalendarStatus } from './CalendarCards.tsx';
import { CalendarSyncCard } from './CalendarSyncCard.tsx';
import { TutorCalendarSection } from './CalendarWeek.tsx';
import { BioEditor, NameEditor, PictureUpload } from './ProfileEditors.tsx';
import { SubjectsEditor } from './SubjectsEditor.tsx';
import { TimezoneSelect } from './TimezoneSelect.tsx';
import { DASHBOARD_CHOSEN } from './TutorOnboardingPage.tsx';
import { TutorOnly } from './TutorOnly.tsx';
import { TutorSessions } from './TutorSessions.tsx';
import { DAY_NAMES, formatTime, WeeklyHoursEditor } from './WeeklyHoursEditor.tsx';

/** /tutor and /tutor-dashboard (tutor only; other roles see "Access Denied"). */
export function TutorDashboardPage() {
  useDocumentTitle('Tutor Dashboard');
  return <TutorOnly>{(user) => <TutorDashboard user={user} />}</TutorOnly>;
}

function choseDashboard(): boolean {
  try {
    return sessionStorage.getItem(DASHBOARD_CHOSEN) === '1';
  } catch {
    return false;
  }
}

function TutorDashboard({ user }: { user: User }) {
  const profile = useQuery({ queryKey: tutorKeys.profile, queryFn: tutorsApi.profile });
  const [editingName, setEditingName] = useState(false);
  const navigate = useNavigate();
  // A tutor who has not finished onboarding starts there, unless they chose the dashboard from it.
  const toOnboarding = profile.data !== undefined && !profile.data.onboardingCompleted && !choseDashboard();
  useEffect(() => {
    if (toOnboarding) void navigate({ to: '/tutor-onboarding', replace: true });
  }, [toOnboarding, navigate]);
  if (toOnboarding) return <PageSpinner label="Opening your onboarding..." />;

  return (
    <DashboardShell user={user} badge={<Badge variant="secondary">Tutor</Badge>}>
      <div className="grid gap-6">
        <WelcomeHeader
          user={user}
          purpose="Manage your profile, teaching subjects, weekly hours and calendar. Students book you in the hours your calendar shows as free."
          facts={[
            { label: 'Email', value: user.email },
            { label: 'Sign-in', value: user.authProvider === 'google' ? 'Google account' : 'Username and password' },
            { label: 'Time zone', value: timezoneFact(user) },
            { label: 'Experience', value: profile.data?.experience != null ? `${profile.data.experience} years` : 'Not set' },
          ]}
          actions={
            <Button variant="outline" size="sm" aria-expanded={editingName} onClick={() => setEditingName((v) => !v)}>
              <Pencil aria-hidden="true" />
              {editingName ? 'Close' : 'Edit name'}
            </Button>
          }
        />
        {editingName ? (
          <Card>
            <CardHeader>
              <CardTitle as="h2">Your name</CardTitle>
            </CardHeader>
            <CardContent>
              <NameEditor user={user} onSaved={() => setEditingName(false)} />
            </CardContent>
          </Card>
        ) : null}

        {profile.isPending ? (
          <div role="status" aria-label="Loading your tutor profile" className="grid gap-4">
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-40 w-full" />
          </div>
        ) : profile.isError ? (
          <LoadError
            title="Could not load your tutor profile"
            message={serverMessage(profile.error, 'Please try again.')}
            onRetry={() => void profile.refetch()}
            retrying={profile.isRefetching}
          />
        ) : (
          <DashboardBody user={user} profile={profile.data} />
        )}
        <CalendarFeedCard />
        <NotificationSettingsCard />
      </div>
    </DashboardShell>
  );
}

function DashboardBody({ user, profile }: { user: User; profile: TutorProfile }) {
  const status = useCalendarStatus(profile.id);
  return (
    <>
      <CalendarStatusSection tutorId={profile.id} />
      {profile.onboardingCompleted ? null : <OnboardingChecklist profile={profile} status={status.data} />}
      <Metrics />
      <TutorSessions tutorId={profile.id} zone={user.timezone} />
      <TutorReviewsCard zone={user.timezone} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle as="h2">Profile</CardTitle>
            <CardDescription>What students and parents see when they choose a tutor.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <PictureUpload profile={profile} user={user} />
            <BioEditor profile={profile} />
          </CardContent>
        </Card>
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Time zone</CardTitle>
              <CardDescription>Sessions and your hours are shown in this zone.</CardDescription>
            </CardHeader>
            <CardContent>
              <TimezoneSelect key={user.timezone} user={user} />
            </CardContent>
          </Card>
          <CalendarSyncCard tutorId={profile.id} zone={user.timezone} />
        </div>
      </div>
      <Card>
        <CardHeader>
          <CardTitle as="h2">Teaching subjects</CardTitle>
          <CardDescription>The subjects you teach and the highest grade level for each.</CardDescription>
        </CardHeader>
        <CardContent>
          <SubjectsEditor />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h2">Availability</CardTitle>
          <CardDescription>Your weekly Topmark Hours.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <AvailabilityInstructions />
          <CurrentHours />
          <WeeklyHoursEditor user={user} />
        </CardContent>
      </Card>
      {status.data ? <TutorCalendarSection zone={user.timezone} provider={status.data.provider} /> : null}
    </>
  );
}

/** The saved weekly hours, as students' slots come from them. */
function CurrentHours() {
  const hours = useQuery({ queryKey: tutorKeys.availability, queryFn: tutorsApi.availability });
  if (!hours.data) return null;
  const active = [...hours.data].sort((a, b) => a.dayOfWeek - b.dayOfWeek || a.startTime.localeCompare(b.startTime));
  if (active.length === 0) return <p className="text-sm text-slate-600">You have no weekly hours yet, so students cannot book you.</p>;
  return (
    <section aria-labelledby="current-hours">
      <h3 id="current-hours" className="text-sm font-semibold text-slate-900">
        Your hours now
      </h3>
      <ul className="mt-2 flex flex-wrap gap-2" data-testid="current-hours">
        {active.map((h) => (
          <li key={h.id} className="rounded-md bg-brand-50 px-2.5 py-1 text-sm text-brand-800">
            {DAY_NAMES[h.dayOfWeek]} {formatTime(h.startTime)} – {formatTime(h.endTime)}
            {h.isActive ? null : ' (not in your calendar yet)'}
          </li>
        ))}
      </ul>
    </section>
  );
}

function OnboardingChecklist({ profile, status }: { profile: TutorProfile; status: CalendarStatusAnswer | undefined }) {
  const subjects = useQuery({ queryKey: tutorKeys.mySubjects, queryFn: tutorsApi.mySubjects });
  const count = subjects.data?.length ?? 0;
  const hasBio = Boolean(profile.bio?.trim());
  const items: { label: string; done: boolean }[] = [
    { label: subjects.isPending ? 'Teaching subjects' : `Teaching subjects (${count} selected)`, done: count > 0 },
    { label: 'Bio written', done: hasBio },
    { label: 'Profile complete (bio and experience)', done: hasBio && profile.experience !== null },
    { label: 'Calendar shared', done: status?.isConnected ?? false },
  ];
  return (
    <Card className="border-brand-200 bg-brand-50/40">
      <CardHeader>
        <CardTitle as="h2">Finish setting up your tutor profile</CardTitle>
        <CardDescription>Students can book you once onboarding is complete.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ul className="grid gap-2 sm:grid-cols-2">
          {items.map((item) => (
            <li key={item.label} className="flex items-center gap-2 text-sm">
              {item.done ? (
                <CheckCircle2 className="size-5 text-success" aria-hidden="true" />
              ) : (
                <Circle className="size-5 text-slate-400" aria-hidden="true" />
              )}
              <span>{item.label}</span>
              <span className="sr-only">{item.done ? '(done)' : '(to do)'}</span>
            </li>
          ))}
        </ul>
        <div>
          <Link to="/tutor-onboarding" className={buttonVariants()}>
            Continue onboarding
          </Link>
        </div>
      </CardContent>
    </Card>
  );
}

const cad = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'CAD' });
const hoursFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

function Metrics() {
  const stats = useQuery({ queryKey: tutorKeys.stats, queryFn: tutorsApi.stats });
  if (stats.isError) {
    return <LoadError title="Could not load your figures" onRetry={() => void stats.refetch()} retrying={stats.isRefetching} />;
  }
  const s = stats.data;
  const cards: { label: string; value: string | undefined; hint: string; icon: React.ComponentType<{ className?: string }> }[] = [
    { label: 'Active students', value: s?.activeStudents.toString(), hint: 'Students with upcoming sessions', icon: Users },
    { label: 'Sessions this week', value: s?.sessionsThisWeek.toString(), hint: 'Monday to Sunday', icon: CalendarRange },
    {
      label: 'Hours this billing period',
      value: s ? hoursFormat.format(s.hoursThisBillingPeriod) : undefined,
      hint: '1st–15th or 16th–end of month',
      icon: Clock,
    },
    {
      label: 'Earnings this period',
      value: s ? cad.format(s.earningsThisBillingPeriod) : undefined,
      hint: 'Canadian dollars',
      icon: DollarSign,
    },
  ];
  return (
    <section aria-label="Your figures" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {cards.map((c) => (
        <Card key={c.label}>
          <CardContent className="flex items-start justify-between gap-3">
            <div>
              <p className="text-sm font-medium text-slate-600">{c.label}</p>
              {c.value === undefined ? (
                <Skeleton className="mt-2 h-8 w-16" />
              ) : (
                <p className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{c.value}</p>
              )}
              <p className="mt-1 text-xs text-slate-500">{c.hint}</p>
            </div>
            <c.icon className="size-5 text-brand-700" aria-hidden="true" />
          </CardContent>
        </Card>
      ))}
    </section>
  );
}
