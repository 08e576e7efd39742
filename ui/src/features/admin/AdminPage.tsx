import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { DashboardShell, WelcomeHeader } from '../dashboards/DashboardShell.tsx';
import { memberSince, timezoneFact } from '../dashboards/facts.ts';

export const ADMIN_AREA_ROLES = ['admin', 'finance'] as const;

/** /admin (admin, finance): header with initials, full name and an Admin badge (spec part 2 §2). */
export function AdminDashboardPage() {
  useDocumentTitle('Admin');
  return <ProtectedRoute roles={ADMIN_AREA_ROLES}>{(user) => <AdminDashboard user={user} />}</ProtectedRoute>;
}

function AdminDashboard({ user }: { user: User }) {
  const roleLabel = user.role === 'finance' ? 'Finance' : 'Admin';
  return (
    <DashboardShell user={user} badge={<Badge>{roleLabel}</Badge>}>
      <WelcomeHeader
        user={user}
        badges={<Badge className="sm:hidden">{roleLabel}</Badge>}
        purpose="The admin area is where Topmark staff review tutor applications, invite tutors and oversee users, sessions, purchases, payouts and promo codes."
        facts={[
          { label: 'Role', value: roleLabel },
          { label: 'Email', value: user.email },
          { label: 'Time zone', value: timezoneFact(user) },
          { label: 'Member since', value: memberSince(user) },
        ]}
      />
    </DashboardShell>
  );
}
