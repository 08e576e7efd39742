import type { LoginValues, RegistrationPayload } from '@shared/accounts/accountForms.ts';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { dismissToasts, toast } from '../../components/ui/toast.tsx';
import { accountsApi } from '../../features/accounts/api.ts';
import { errorMessage } from '../api.ts';
import { syncTimezone } from './timezoneSync.ts';
import type { User } from './types.ts';
import { currentUserKey } from './useCurrentUser.ts';

/** POST /api/login; answers the signed-in user (the session cookie is set by the server). */
export function postLogin(credentials: LoginValues): Promise<User> {
  return accountsApi.login(credentials);
}

/**
 * Stores a freshly signed-in user as the current user and starts the time-zone sync. The errors
 * of earlier failed attempts are closed: they no longer describe the situation.
 */
export function storeSignedInUser(queryClient: QueryClient, user: User): void {
  dismissToasts((t) => t.variant === 'destructive');
  queryClient.setQueryData<User | null>(currentUserKey, user);
  void syncTimezone(user, queryClient);
}

/** Forgets everything cached for the previous user and marks the visitor as anonymous. */
export function forgetSignedInUser(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserKey[0] });
  queryClient.setQueryData<User | null>(currentUserKey, null);
}

/** Sign in (spec part 1 §4): success stores the returned user as the current user. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postLogin,
    onSuccess: (user) => storeSignedInUser(queryClient, user),
  });
}

/**
 * Registration. The server answers 201 with the new user but opens no session (the e-mail must
 * be verified first, docs/accounts.md), so the answer is not stored as the current user: the
 * visitor stays anonymous until they sign in.
 */
export function useRegister() {
  return useMutation({
    mutationFn: (payload: RegistrationPayload) => accountsApi.register(payload),
  });
}

/**
 * Sign out: POST /api/logout, go home, then set the current user to none (spec part 1 §4).
 * Failure: toast "Logout failed" with the server message.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => accountsApi.logout(),
    onSuccess: async () => {
      // Leave the protected page first so its guard does not bounce to /login on the way out.
      await navigate({ to: '/' });
      forgetSignedInUser(queryClient);
    },
    onError: (error) => {
      toast({ title: 'Logout failed', description: errorMessage(error, 'Logout failed'), variant: 'destructive' });
    },
  });
}

/** DELETE /api/user/delete: the account is erased and the session ends; then home. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => accountsApi.deleteAccount(),
    onSuccess: async () => {
      await navigate({ to: '/' });
      forgetSignedInUser(queryClient);
      toast({ title: 'Account deleted', description: 'Your Topmark account and personal data have been deleted.' });
    },
    onError: (error) => {
      toast({
        title: 'Account deletion failed',
        description: errorMessage(error, 'Failed to delete your account. Please try again.'),
        variant: 'destructive',
      });
    },
  });
}
