import type { TutorProfile } from '@shared/tutors/tutorApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { CalendarDays, Check, Clock, GraduationCap, PartyPopper, UserRound } from 'lucide-react';
import { useRef, useState } from 'react';
import { serverMessage } from '../../app/api.ts';
import type { User } from '../../app/auth/types.ts';
import { DashboardShell } from '../../app/layout/DashboardShell.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { PendingButton, Skeleton } from '../../components/parts.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { cn } from '../../lib/utils.ts';
import { tutorKeys, tutorsApi } from './api.ts';
import { AvailabilityInstructions, CalendarStatusSection, useCalendarStatus } from './CalendarCards.tsx';
import { BioEditor, NameEditor, PictureUpload } from './ProfileEditors.tsx';
import { SubjectsEditor } from './SubjectsEditor.tsx';
import { TutorOnly } from './TutorOnly.tsx';
import { WeeklyHoursEditor } from './WeeklyHoursEditor.tsx';

/** Set when the tutor leaves onboarding for the dashboard: it then stops sending them back (this tab only). */
export const DASHBOARD_CHOSEN = 'topmark.tutorDashboardChosen';

function chooseDashboard() {
  try {
    sessionStorage.setItem(DASHBOARD_CHOSEN, '1');
  } catch {
    // storage unavailable: the dashboard sends the tutor back here until onboarding is complete
  }
}

const steps = [
  { id: 'profile', title: 'Profile', icon: UserRound },
  { id: 'subjects', title: 'Subjects & levels', icon: GraduationCap },
  { id: 'hours', title: 'Weekly hours', icon: Clock },
  { id: 'calendar', title: 'Calendar', icon: CalendarDays },
  { id: 'finish', title: 'Finish', icon: PartyPopper },
] as const;
type StepId = (typeof steps)[number]['id'];

/** /tutor-onboarding (tutor only): profile, subjects, weekly hours, calendar, finish; each step saves as it goes. */
export function TutorOnboardingPage() {
  useDocumentTitle('Tutor Onboarding');
  return <TutorOnly signInPath="/tutor-login">{(user) => <Onboarding user={user} />}</TutorOnly>;
}

function Onboarding({ user }: { user: User }) {
  const profile = useQuery({ queryKey: tutorKeys.profile, queryFn: tutorsApi.profile });
  return (
    <DashboardShell user={user} badge={<Badge variant="secondary">Tutor</Badge>}>
      <div className="mx-auto grid max-w-4xl gap-6">
        <header>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            Welcome to Topmark, {user.firstName || user.username}
          </h1>
          <p className="mt-2 text-slate-600">
            Your application was approved. Set up your profile, the subjects and grade levels you teach, your weekly hours and your calendar
            — it takes 10-15 minutes, and your progress is saved at every step.
          </p>
          <p className="mt-2 text-sm">
            <Link to="/tutor" onClick={chooseDashboard} className="font-medium text-brand-700 underline-offset-4 hover:underline">
              Go to your dashboard for now
            </Link>
          </p>
        </header>
        {profile.isPending ? (
          <div role="status" aria-label="Loading your tutor profile" className="grid gap-3">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-64 w-full" />
          </div>
        ) : profile.isError ? (
          <LoadError
            title="Could not load your tutor profile"
            message={serverMessage(profile.error, 'Please try again.')}
            onRetry={() => void profile.refetch()}
            retrying={profile.isRefetching}
          />
        ) : (
          <Steps user={user} profile={profile.data} />
        )}
      </div>
    </DashboardShell>
  );
}

/** The first step still to do, so a returning tutor resumes where they left off. */
function useResumeStep(profile: TutorProfile): StepId | undefined {
  const mySubjects = useQuery({ queryKey: tutorKeys.mySubjects, queryFn: tutorsApi.mySubjects });
  const hours = useQuery({ queryKey: tutorKeys.availability, queryFn: tutorsApi.availability });
  if (!profile.bio?.trim() || profile.experience === null) return 'profile';
  if (mySubjects.isPending || hours.isPending) return undefined;
  if (!mySubjects.data?.length) return 'subjects';
  if (!hours.data?.length) return 'hours';
  return 'calendar';
}

function Steps({ user, profile }: { user: User; profile: TutorProfile }) {
  const resume = useResumeStep(profile);
  const [step, setStep] = useState<StepId | undefined>(undefined);
  const current: StepId | undefined = step ?? resume;
  const heading = useRef<HTMLHeadingElement>(null);
  const go = (next: StepId) => {
    setStep(next);
    requestAnimationFrame(() => heading.current?.focus());
  };
  if (!current) {
    return <Skeleton className="h-64 w-full" />;
  }
  const index = steps.findIndex((s) => s.id === current);
  const meta = steps[index] ?? steps[0];

  return (
    <>
      <nav aria-label="Onboarding steps">
        <ol className="grid grid-cols-5 gap-1 sm:gap-2">
          {steps.map((s, i) => {
            const done = i < index;
            const active = s.id === current;
            return (
              <li key={s.id}>
                <button
                  type="button"
                  onClick={() => go(s.id)}
                  aria-current={active ? 'step' : undefined}
                  className={cn(
                    'flex w-full flex-col items-center gap-1 rounded-md px-1 py-2 text-center text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring sm:text-sm',
                    active ? 'bg-brand-50 text-brand-800' : 'text-slate-600 hover:bg-slate-100',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      'inline-flex size-8 items-center justify-center rounded-full border text-sm',
                      active ? 'border-brand-700 bg-brand-700 text-white' : done ? 'border-brand-700 text-brand-700' : 'border-slate-300',
                    )}
                  >
                    {done ? <Check className="size-4" /> : i + 1}
                  </span>
                  <span className="hidden sm:inline">{s.title}</span>
                  <span className="sr-only sm:hidden">{s.title}</span>
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <Card>
        <CardHeader>
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">
            Step {index + 1} of {steps.length}
          </p>
          <CardTitle as="h2">
            <span ref={heading} tabIndex={-1} className="focus:outline-none">
              {meta.title}
            </span>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-6">
          {current === 'profile' ? (
            <>
              <CardDescription>Students and parents see your name, picture, bio and experience when they choose a tutor.</CardDescription>
              <NameEditor user={user} />
              <PictureUpload profile={profile} user={user} />
              <BioEditor profile={profile} requireBoth submitLabel="Save and continue" onSaved={() => go('subjects')} />
            </>
          ) : null}
          {current === 'subjects' ? (
            <>
              <CardDescription>
                Choose every subject you teach and the highest grade level you teach it at. University courses also qualify you for the same
                area at lower levels.
              </CardDescription>
              <SubjectsEditor submitLabel="Save and continue" onSaved={() => go('hours')} />
            </>
          ) : null}
          {current === 'hours' ? (
            <>
              <AvailabilityInstructions />
              <WeeklyHoursEditor user={user} submitLabel="Save and continue" onSaved={() => go('calendar')} />
            </>
          ) : null}
          {current === 'calendar' ? (
            <>
              <CardDescription>Bookings go into your calendar, and your calendar decides when you are free.</CardDescription>
              <CalendarStatusSection tutorId={profile.id} />
              <div>
                <Button onClick={() => go('finish')}>Continue</Button>
              </div>
            </>
          ) : null}
          {current === 'finish' ? <Finish profile={profile} onGoTo={go} /> : null}
        </CardContent>
      </Card>
    </>
  );
}

function Finish({ profile, onGoTo }: { profile: TutorProfile; onGoTo: (step: StepId) => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const status = useCalendarStatus(profile.id);
  const [missing, setMissing] = useState<string | null>(null);
  const complete = useMutation({
    mutationFn: () => tutorsApi.completeOnboarding(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: tutorKeys.profile });
      toast({ title: 'Onboarding complete', description: 'Welcome aboard! Students can now find and book you.', variant: 'success' });
      await navigate({ to: '/tutor' });
    },
    onError: (e) => {
      const message = serverMessage(e, 'Failed to complete onboarding');
      setMissing(message);
      if (!/^422:/.test(e instanceof Error ? e.message : '')) {
        toast({ title: 'Failed to complete onboarding', description: message, variant: 'destructive' });
      }
    },
  });
  return (
    <>
      <CardDescription>
        Check your set-up, then finish. You can change any of it later from your dashboard.
        {status.data && !status.data.isConnected ? ' Your calendar is not connected yet.' : ''}
      </CardDescription>
      <ul className="grid gap-2 text-sm">
        {steps.slice(0, 4).map((s) => (
          <li key={s.id} className="flex items-center justify-between gap-3 rounded-md border border-border px-3 py-2">
            <span>{s.title}</span>
            <Button variant="link" size="sm" onClick={() => onGoTo(s.id)}>
              Review<span className="sr-only"> {s.title}</span>
            </Button>
          </li>
        ))}
      </ul>
      {missing ? (
        <Alert variant="destructive">
          <AlertTitle>Onboarding is not complete yet</AlertTitle>
          <AlertDescription>{missing}</AlertDescription>
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <PendingButton
          onClick={() => complete.mutate()}
          pending={complete.isPending}
          label="Finish onboarding"
          pendingLabel="Finishing..."
        />
        <Link to="/tutor" onClick={chooseDashboard} className={buttonVariants({ variant: 'outline' })}>
          Go to dashboard
        </Link>
      </div>
    </>
  );
}
