import { useQuery } from '@tanstack/react-query';
import { CircleAlert, RotateCw } from 'lucide-react';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Alert, AlertDescription } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { accountsApi } from '../accounts/api.ts';
import { DashboardShell, WelcomeHeader } from './DashboardShell.tsx';
import { memberSince, timezoneFact } from './facts.ts';
import { SecondaryLoginDialog } from './SecondaryLoginDialog.tsx';

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
  const { data, isPending, isError, refetch, isRefetching } = useQuery({
    queryKey: accountsApi.parentStudentsKey,
    queryFn: accountsApi.parentStudents,
  });
  return (
    <Card className="mt-8">
      <CardHeader>
        <CardTitle as="h2">Your students</CardTitle>
        <CardDescription>
          Each student can have a view-only login: it follows courses, sessions and progress, and cannot buy, book or change anything.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="space-y-3" role="status">
            <div className="h-14 animate-pulse rounded-md bg-slate-100" />
            <div className="h-14 animate-pulse rounded-md bg-slate-100" />
            <span className="sr-only">Loading students</span>
          </div>
        ) : isError ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertDescription>
              <p>Your students could not be loaded.</p>
              <Button variant="outline" size="sm" className="mt-2" disabled={isRefetching} onClick={() => void refetch()}>
                <RotateCw className={isRefetching ? 'animate-spin' : undefined} aria-hidden="true" />
                Try again
              </Button>
            </AlertDescription>
          </Alert>
        ) : data.students.length === 0 ? (
          <p className="text-sm text-slate-600">No students are linked to your account yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {data.students.map((s) => (
              <li
                key={s.id}
                className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
                data-testid="parent-student"
              >
                <div>
                  <p className="font-medium text-slate-900">
                    {s.firstName} {s.lastName}
                  </p>
                  <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
                    <span>{s.grade?.trim() ? s.grade : 'Grade not set'}</span>
                    {s.hasSecondaryLogin ? (
                      <Badge variant="success">View-only login{s.secondaryUsername ? `: ${s.secondaryUsername}` : ' set'}</Badge>
                    ) : (
                      <Badge variant="outline">No view-only login</Badge>
                    )}
                  </p>
                </div>
                <SecondaryLoginDialog student={s} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
