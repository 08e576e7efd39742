import { DASHBOARD_EMPTY, DASHBOARD_FAILED, type StudentDashboard as DashboardData } from '@shared/students/studentApi.ts';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate } from '@tanstack/react-router';
import { Eye, GraduationCap, Inbox, LineChart, UserCog } from 'lucide-react';
import { useState } from 'react';
import { timezoneFact } from '../../app/auth/facts.ts';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { fullName } from '../../app/auth/types.ts';
import { DashboardShell, WelcomeHeader } from '../../app/layout/DashboardShell.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Skeleton } from '../../components/parts.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { TimeZoneCard } from '../accounts/TimeZoneCard.tsx';
import { NotificationSettingsCard } from '../notices/NotificationSettingsCard.tsx';
import { MyCourses } from '../purchases/MyCourses.tsx';
import { CalendarFeedCard } from '../sessions/CalendarFeedCard.tsx';
import { dashboardsApi } from './api.ts';
import { DeleteAccountButton } from './DeleteAccountButton.tsx';
import { HelpDialog } from './HelpDialog.tsx';
import { gradeMissing, monthName, StudentAccountDialog } from './StudentAccountDialog.tsx';
import { StudentSessions } from './StudentSessions.tsx';

export const STUDENT_AREA_ROLES = ['student', 'student_secondary'] as const;

/** A 404 from the dashboard: the account has no student profile to show. */
const isNotFound = (error: unknown) => error instanceof Error && error.message.startsWith('404:');

/**
 * /student and /student-dashboard (student, student_secondary). A parent who lands here (the
 * purchase flow ends on /student) goes to their own dashboard, /parent.
 */
export function StudentDashboardPage() {
  useDocumentTitle('Student Dashboard');
  return (
    <ProtectedRoute roles={[...STUDENT_AREA_ROLES, 'parent']}>
      {(user) => (user.role === 'parent' ? <Navigate to="/parent" replace /> : <StudentDashboard user={user} />)}
    </ProtectedRoute>
  );
}

/** The student dashboard of spec part 2 §2, on GET /api/student/dashboard. */
function StudentDashboard({ user }: { user: User }) {
  // Read again on every visit (reads never go stale by default): bookings and purchases made on other pages show.
  const dashboard = useQuery({
    queryKey: dashboardsApi.dashboardKey(),
    queryFn: () => dashboardsApi.dashboard(),
    refetchOnMount: 'always',
  });
  const data = dashboard.data;
  const viewOnly = user.viewOnly || user.role === 'student_secondary' || data?.isSubAccount === true;
  const [accountOpen, setAccountOpen] = useState(false);
  // The signed-in user's profile is what the Account dialog updates: it wins over the dashboard's copy.
  const profile = user.student ?? data?.student ?? null;
  const missingGrade = user.student ? gradeMissing(user) : !data?.student.grade.trim();
  const canEditAccount = !viewOnly && user.student !== null;
  const grade = profile?.grade ?? '';
  const studentId = data?.student.id ?? user.student?.id ?? null;
  const viewOnlyBadge = viewOnly ? (
    <Badge variant="outline" data-testid="view-only-badge">
      <Eye aria-hidden="true" />
      View Only
    </Badge>
  ) : null;

  return (
    <DashboardShell user={user} badge={<Badge variant="secondary">Student</Badge>}>
      {canEditAccount && missingGrade ? (
        <Alert className="mb-6" data-testid="grade-prompt">
          <GraduationCap aria-hidden="true" />
          <AlertTitle>Set your grade</AlertTitle>
          <AlertDescription>
            <p>Tell us your grade and when your school year starts, so we can show the tutoring levels and packages that fit you.</p>
            <Button size="sm" className="mt-3" onClick={() => setAccountOpen(true)}>
              Set your grade
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      <WelcomeHeader
        user={user}
        badges={viewOnlyBadge}
        purpose={
          viewOnly
            ? 'This view-only login follows the student’s courses, sessions and progress; purchases and bookings are made from the main student account.'
            : 'Your student area is where you manage your courses, book sessions with your tutor and follow your progress.'
        }
        actions={
          <>
            {canEditAccount ? (
              <Button variant="outline" size="sm" onClick={() => setAccountOpen(true)}>
                <UserCog aria-hidden="true" />
                Account
              </Button>
            ) : null}
            <HelpDialog name={fullName(user)} studentId={studentId} />
            {studentId ? (
              <Button asChild variant="outline" size="sm">
                <Link to="/student-info/$studentId" params={{ studentId }}>
                  <LineChart aria-hidden="true" />
                  Progress report
                </Link>
              </Button>
            ) : null}
          </>
        }
        facts={[
          { label: 'Grade', value: grade.trim() ? grade : 'Not set' },
          {
            label: 'School year starts',
            value: monthName(profile?.schoolYearStartMonth) ?? 'Not set',
          },
          { label: 'Email', value: user.email },
          {
            label: 'Time zone',
            value: viewOnly ? (
              <>
                {timezoneFact(user)}
                <span className="block text-xs font-normal text-slate-500">Set by the main student account</span>
              </>
            ) : (
              timezoneFact(user)
            ),
          },
        ]}
      />
      {canEditAccount ? <StudentAccountDialog user={user} open={accountOpen} onOpenChange={setAccountOpen} /> : null}
      {dashboard.isPending ? (
        <div role="status" aria-label="Loading dashboard" className="mt-8 grid gap-4">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : dashboard.isError ? (
        <div className="mt-8">
          {isNotFound(dashboard.error) ? (
            <EmptyDashboard />
          ) : (
            <LoadError title={DASHBOARD_FAILED} onRetry={() => void dashboard.refetch()} retrying={dashboard.isFetching} />
          )}
        </div>
      ) : (
        <DashboardBody user={user} data={dashboard.data} />
      )}
      {viewOnly || user.role !== 'student' ? null : (
        <>
          <TimeZoneCard user={user} />
          <CalendarFeedCard />
          <NotificationSettingsCard />
        </>
      )}
      {viewOnly ? null : (
        <section
          aria-labelledby="account-heading"
          className="mt-8 flex flex-col gap-4 rounded-[var(--radius-card)] border border-border bg-white p-6 shadow-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <div>
            <h2 id="account-heading" className="text-base font-semibold text-slate-900">
              Your account
            </h2>
            <p className="mt-1 text-sm text-slate-600">Deleting your account erases your personal data and signs you out.</p>
          </div>
          <DeleteAccountButton />
        </section>
      )}
    </DashboardShell>
  );
}

function EmptyDashboard() {
  return (
    <div className="flex flex-col items-center gap-2 rounded-[var(--radius-card)] border border-border bg-white p-8 text-center shadow-sm">
      <Inbox className="size-8 text-slate-400" aria-hidden="true" />
      <p className="font-medium text-slate-900">{DASHBOARD_EMPTY}</p>
      <p className="text-sm text-slate-600">There is no student profile on this account yet.</p>
    </div>
  );
}

function DashboardBody({ user, data }: { user: User; data: DashboardData }) {
  return (
    <>
      {data.canPurchase ? null : (
        <Alert className="mt-8" data-testid="progress-tracking-only">
          <Eye aria-hidden="true" />
          <AlertTitle>Progress Tracking Only</AlertTitle>
          <AlertDescription>
            This account follows courses, sessions and progress. To buy packages, book sessions or change account details, ask your parent
            or guardian, or the main account holder (18+).
          </AlertDescription>
        </Alert>
      )}
      <MyCourses user={user} canPurchase={data.canPurchase} sessions={data.sessions} />
      <StudentSessions
        user={user}
        sessions={data.sessions}
        courses={data.courses}
        canAct={data.canPurchase && !data.isSubAccount}
        reviewStudentId={data.isSubAccount ? null : data.student.id}
      />
    </>
  );
}
