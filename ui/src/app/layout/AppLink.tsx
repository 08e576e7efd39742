import { Link } from '@tanstack/react-router';
import type * as React from 'react';

/**
 * A router link to a path that may not be registered in the route tree yet (e.g. /login,
 * /tutor-login, /tutors, which other features add). It still navigates client-side; once the
 * route exists, prefer a typed `<Link to="...">`.
 */
export function AppLink({ to, ...props }: { to: string } & Omit<React.ComponentProps<'a'>, 'href'>) {
  return <Link to={to as never} {...props} />;
}
