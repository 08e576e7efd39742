import { Eye, GraduationCap, UserCog } from 'lucide-react';
import { useState } from 'react';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { MyCourses } from '../purchases/MyCourses.tsx';
import { DashboardShell, WelcomeHeader } from './DashboardShell.tsx';
import { DeleteAccountButton } from './DeleteAccountButton.tsx';
import { timezoneFact } from './facts.ts';
import { gradeMissing, monthName, StudentAccountDialog } from './StudentAccountDialog.tsx';

export const STUDENT_AREA_ROLES = ['student', 'student_secondary'] as const;

/** /student and /student-dashboard (student, student_secondary). */
export function StudentDashboardPage() {
  useDocumentTitle('Student Dashboard');
  return <ProtectedRoute roles={STUDENT_AREA_ROLES}>{(user) => <StudentDashboard user={user} />}</ProtectedRoute>;
}

function StudentDashboard({ user }: { user: User }) {
  const viewOnly = user.viewOnly || user.role === 'student_secondary';
  const [accountOpen, setAccountOpen] = useState(false);
  const missingGrade = gradeMissing(user);
  const canEditAccount = !viewOnly && user.student !== null;
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
          canEditAccount ? (
            <Button variant="outline" size="sm" onClick={() => setAccountOpen(true)}>
              <UserCog aria-hidden="true" />
              Account
            </Button>
          ) : null
        }
        facts={[
          { label: 'Grade', value: missingGrade ? 'Not set' : user.student?.grade },
          { label: 'School year starts', value: monthName(user.student?.schoolYearStartMonth) ?? 'Not set' },
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
      <MyCourses user={user} canPurchase={!viewOnly} />
      {viewOnly ? (
        <Alert className="mt-8">
          <Eye aria-hidden="true" />
          <AlertTitle>View-only access</AlertTitle>
          <AlertDescription>
            To buy packages, book sessions or change account details, ask your parent or guardian, or the main account holder (18+).
          </AlertDescription>
        </Alert>
      ) : (
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
