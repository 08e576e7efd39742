import { Navigate } from '@tanstack/react-router';
import { landingOf } from '../../app/auth/landing.ts';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';

/** /dashboard: shows only "Redirecting..." and sends the user to their landing page. */
export function DashboardRedirectPage() {
  useDocumentTitle('Dashboard');
  return (
    <ProtectedRoute>
      {(user) => (
        <>
          <p role="status" className="px-4 py-16 text-center text-sm text-slate-600">
            Redirecting...
          </p>
          <Navigate to={landingOf(user.role)} replace />
        </>
      )}
    </ProtectedRoute>
  );
}
