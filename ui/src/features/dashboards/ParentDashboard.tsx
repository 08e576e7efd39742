import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Badge } from '../../components/ui/badge.tsx';
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
    </DashboardShell>
  );
}
