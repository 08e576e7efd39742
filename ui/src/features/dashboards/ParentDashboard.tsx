import { useQuery } from '@tanstack/react-query';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { accountsApi } from '../accounts/api.ts';
import { DashboardShell, WelcomeHeader } from './DashboardShell.tsx';
import { memberSince, timezoneFact } from './facts.ts';

/** /parent (parent only). */
export function ParentDashboardPage() {
  useDocumentTitle('Parent Dashboard');
  return <ProtectedRoute roles={['parent']}>{(user) => <ParentDashboard user={user} />}</ProtectedRoute>;
}

function ParentDashboard({ user }: { user: User }) {
  return (
    <DashboardShell user={user} badge={<Badge variant="secondary">Parent</Badge>}>
      <WelcomeHeader
        user={user}
        purpose="Your parent area is where you follow each child's completed, upcoming and remaining sessions per package and renew packages."
        facts={[
          { label: 'Email', value: user.email },
          { label: 'Phone', value: user.phone || 'Not given' },
          { label: 'Time zone', value: timezoneFact(user) },
          { label: 'Member since', value: memberSince(user) },
        ]}
      />
      <ParentStudents />
    </DashboardShell>
  );
}

function ParentStudents() {
  const { data, isLoading, isError } = useQuery({ queryKey: accountsApi.parentStudentsKey, queryFn: accountsApi.parentStudents });
  return (
    <Card className="mt-8">
      <CardHeader>
        <CardTitle>Your students</CardTitle>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="h-12 animate-pulse rounded-md bg-slate-100" role="status">
            <span className="sr-only">Loading students</span>
          </div>
        ) : isError ? (
          <p className="text-sm text-destructive">Your students could not be loaded. Please refresh the page.</p>
        ) : !data || data.students.length === 0 ? (
          <p className="text-sm text-slate-600">No students are linked to your account yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {data.students.map((s) => (
              <li key={s.id} className="flex items-center justify-between py-3">
                <span className="font-medium text-slate-900">
                  {s.firstName} {s.lastName}
                </span>
                <span className="flex items-center gap-2 text-sm text-slate-600">
                  {s.grade}
                  {s.hasSecondaryLogin ? <Badge variant="secondary">View-only login set</Badge> : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
