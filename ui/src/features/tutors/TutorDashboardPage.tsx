import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { DashboardShell, WelcomeHeader } from '../dashboards/DashboardShell.tsx';
import { memberSince, timezoneFact } from '../dashboards/facts.ts';

/** /tutor and /tutor-dashboard (tutor only). */
export function TutorDashboardPage() {
  useDocumentTitle('Tutor Dashboard');
  return <ProtectedRoute roles={['tutor']}>{(user) => <TutorDashboard user={user} />}</ProtectedRoute>;
}

function TutorDashboard({ user }: { user: User }) {
  return (
    <DashboardShell user={user} badge={<Badge variant="secondary">Tutor</Badge>}>
      <WelcomeHeader
        user={user}
        purpose="Your tutor area is where you manage your profile, teaching subjects, availability and sessions with your students."
        facts={[
          { label: 'Email', value: user.email },
          { label: 'Sign-in', value: user.authProvider === 'google' ? 'Google account' : 'Username and password' },
          { label: 'Time zone', value: timezoneFact(user) },
          { label: 'Tutor since', value: memberSince(user) },
        ]}
      />
    </DashboardShell>
  );
}
