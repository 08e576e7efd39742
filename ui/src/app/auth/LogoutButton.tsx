import { Loader2, LogOut } from 'lucide-react';
import { Button, type ButtonProps } from '../../components/ui/button.tsx';
import { useLogout } from './useAuthActions.ts';

/** Logout ("Logging out..." while pending; failure toast "Logout failed"). */
export function LogoutButton({ variant = 'outline', size = 'sm', className }: Pick<ButtonProps, 'variant' | 'size' | 'className'>) {
  const logout = useLogout();
  return (
    <Button variant={variant} size={size} className={className} disabled={logout.isPending} onClick={() => logout.mutate()}>
      {logout.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <LogOut aria-hidden="true" />}
      {logout.isPending ? 'Logging out...' : 'Logout'}
    </Button>
  );
}
