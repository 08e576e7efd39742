import type { TutorInvitationListEntry } from '@shared/tutors/adminApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, Loader2, MailCheck, RotateCw } from 'lucide-react';
import { errorMessage } from '../../app/api.ts';
import { ConfirmAction } from '../../components/console/ConfirmAction.tsx';
import { exactTime, shortDate, timeAgo } from '../../components/console/format.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { tutorsConsoleApi } from './consoleApi.ts';

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/**
 * The invitations still waiting for the tutor (sent, neither accepted, revoked nor expired), beside
 * the invite form: inviting such an address again is refused, so this is where it is sent again
 * (at most once a minute, the server says when it is too soon) or withdrawn.
 */
export function InvitationsList() {
  const invitations = useQuery({ queryKey: tutorsConsoleApi.invitationsKey, queryFn: tutorsConsoleApi.invitations });
  const outstanding = invitations.data?.filter((i) => i.status === 'outstanding') ?? [];
  return (
    <section aria-labelledby="invitations-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="flex items-center justify-between gap-3 border-b border-border px-5 py-4">
        <h2 id="invitations-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          Outstanding invitations
          {invitations.isSuccess && outstanding.length > 0 ? <Badge variant="secondary">{outstanding.length}</Badge> : null}
        </h2>
        {invitations.isFetching && !invitations.isPending ? (
          <Loader2 className="size-4 animate-spin text-slate-400" aria-label="Refreshing" />
        ) : null}
      </div>
      {invitations.isPending ? (
        <div className="space-y-3 p-5" aria-busy="true">
          <span className="sr-only">Loading invitations</span>
          {[0, 1].map((i) => (
            <div key={i} className="h-16 animate-pulse rounded-md bg-slate-100" />
          ))}
        </div>
      ) : invitations.isError ? (
        <div className="p-5">
          <LoadError
            title="The invitations could not be loaded"
            message={errorMessage(invitations.error, 'The server did not answer as expected.')}
            onRetry={() => void invitations.refetch()}
            retrying={invitations.isFetching}
          />
        </div>
      ) : outstanding.length === 0 ? (
        <div className="flex flex-col items-center px-6 py-10 text-center">
          <MailCheck className="size-9 text-slate-400" aria-hidden="true" />
          <p className="mt-3 font-medium text-slate-900">No outstanding invitations</p>
          <p className="mt-1 text-sm text-slate-600">Invitations you send wait here until the tutor applies or the invitation expires.</p>
        </div>
      ) : (
        <ul className="max-h-[26rem] divide-y divide-border overflow-y-auto" aria-labelledby="invitations-heading">
          {outstanding.map((invitation) => (
            <InvitationItem key={invitation.id} invitation={invitation} />
          ))}
        </ul>
      )}
    </section>
  );
}

function InvitationItem({ invitation }: { invitation: TutorInvitationListEntry }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: tutorsConsoleApi.invitationsKey });
  const onError = async (error: unknown) => {
    toast({ title: 'Error', description: errorMessage(error, 'The invitation could not be changed'), variant: 'destructive' });
    // Someone else may have acted on it meanwhile (409): show the list as it is now.
    await refresh();
  };
  const resend = useMutation({
    mutationFn: () => tutorsConsoleApi.resendInvitation(invitation.id),
    onSuccess: async () => {
      toast({ title: 'Invitation Resent', description: `The invitation was e-mailed to ${invitation.email} again.`, variant: 'success' });
      await refresh();
    },
    onError,
  });
  const revoke = useMutation({
    mutationFn: () => tutorsConsoleApi.revokeInvitation(invitation.id),
    onSuccess: async () => {
      toast({
        title: 'Invitation Revoked',
        description: `${invitation.email} can no longer apply with this invitation.`,
        variant: 'success',
      });
      await refresh();
    },
    onError,
  });
  const busy = resend.isPending || revoke.isPending;

  return (
    <li className="flex flex-col gap-3 px-5 py-4" data-testid="outstanding-invitation">
      <div className="min-w-0 space-y-1">
        <p className="font-medium break-all text-slate-900">{invitation.email}</p>
        <p className="text-xs text-slate-600">
          Invited <time dateTime={invitation.invitedAt}>{shortDate(invitation.invitedAt)}</time>
          {invitation.invitedByName ? ` by ${invitation.invitedByName}` : ''} · Expires{' '}
          <time dateTime={invitation.expiresAt}>{shortDate(invitation.expiresAt)}</time>
        </p>
        <p className="text-xs text-slate-500">
          Sent {times(invitation.sentCount)}, last{' '}
          <time dateTime={invitation.lastSentAt} title={exactTime(invitation.lastSentAt)}>
            {timeAgo(invitation.lastSentAt)}
          </time>
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          aria-disabled={busy || undefined}
          onClick={() => {
            if (!busy) resend.mutate();
          }}
        >
          {resend.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RotateCw aria-hidden="true" />}
          {resend.isPending ? 'Resending...' : 'Resend'}
          <span className="sr-only"> the invitation to {invitation.email}</span>
        </Button>
        <ConfirmAction
          label="Revoke"
          pendingLabel="Revoking..."
          hiddenLabel={`the invitation to ${invitation.email}`}
          title="Revoke this invitation?"
          description={
            <>
              The link e-mailed to <strong className="break-all">{invitation.email}</strong> stops working: signing in with it no longer
              submits an application. You can invite the address again later.
            </>
          }
          confirmLabel="Revoke invitation"
          variant="destructive"
          icon={<Ban aria-hidden="true" />}
          pending={revoke.isPending}
          disabled={resend.isPending}
          onConfirm={() => {
            if (!busy) revoke.mutate();
          }}
        />
      </div>
    </li>
  );
}
