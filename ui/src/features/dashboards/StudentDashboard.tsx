import { Eye } from 'lucide-react';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { DashboardShell, WelcomeHeader } from './DashboardShell.tsx';
import { DeleteAccountButton } from './DeleteAccountButton.tsx';
import { timezoneFact } from './facts.ts';

export const STUDENT_AREA_ROLES = ['student', 'student_secondary'] as const;

/** /student and /student-dashboard (student, student_secondary). */
export function StudentDashboardPage() {
  useDocumentTitle('Student Dashboard');
  return <ProtectedRoute roles={STUDENT_AREA_ROLES}>{(user) => <StudentDashboard user={user} />}</ProtectedRoute>;
}

function StudentDashboard({ user }: { user: User }) {
  const viewOnly = user.viewOnly || user.role === 'student_secondary';
  const grade = user.student?.grade ?? null;
  const viewOnlyBadge = viewOnly ? (
    <Badge variant="outline" data-testid="view-only-badge">
      <Eye aria-hidden="true" />
      View Only
    </Badge>
  ) : null;

  return (
    <DashboardShell user={user} badge={<Badge variant="secondary">Student</Badge>}>
      <WelcomeHeader
        user={user}
        badges={viewOnlyBadge}
        purpose={
          viewOnly
            ? 'This view-only login follows the student’s courses, sessions and progress; purchases and bookings are made from the main student account.'
            : 'Your student area is where you manage your courses, book sessions with your tutor and follow your progress.'
        }
        facts={[
          { label: 'Grade', value: grade ?? 'Not set' },
          { label: 'Level', value: user.student?.isUniversityStudent ? 'University/College student' : 'School student' },
          { label: 'Email', value: user.email },
          { label: 'Time zone', value: timezoneFact(user) },
        ]}
      />
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
