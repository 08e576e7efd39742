import type { AdminListedUser } from '@shared/tutors/adminApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, Inbox, Loader2, Send, X } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../app/api.ts';
import { applicantName, shortDate } from '../../components/console/format.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApproveApplicant } from './ApproveApplicant.tsx';
import { tutorsConsoleApi } from './consoleApi.ts';
import { InvitationsList } from './InvitationsList.tsx';
import { useReview } from './useReview.ts';

/** Create Tutor: the invitation form beside the outstanding invitations, then the pending applications (spec part 2 §2, §5). */
export function CreateTutorTab() {
  return (
    <div className="space-y-8">
      <div className="grid items-start gap-8 lg:grid-cols-2">
        <InviteForm />
        <InvitationsList />
      </div>
      <PendingApplications />
    </div>
  );
}

function InviteForm() {
  const queryClient = useQueryClient();
  const form = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const invite = useMutation({
    mutationFn: tutorsConsoleApi.invite,
    onSuccess: () => {
      toast({
        title: 'Invitation Sent',
        description: 'Google sign-in invitation sent. The tutor can sign up with their Google account.',
        variant: 'success',
      });
      form.reset({ email: '' });
      void queryClient.invalidateQueries({ queryKey: tutorsConsoleApi.pendingTutorsKey });
      void queryClient.invalidateQueries({ queryKey: tutorsConsoleApi.invitationsKey });
    },
    onError: (error) => {
      toast({ title: 'Error', description: errorMessage(error, 'Failed to send invitation'), variant: 'destructive' });
      // Already outstanding (409): the list beside the form shows it, with Resend.
      void queryClient.invalidateQueries({ queryKey: tutorsConsoleApi.invitationsKey });
    },
  });
  const submit = form.handleSubmit(({ email }) => {
    if (invite.isPending) return;
    const trimmed = email.trim();
    if (!trimmed) {
      toast({ title: 'Error', description: 'Please enter an email address', variant: 'destructive' });
      return;
    }
    invite.mutate(trimmed);
  });

  return (
    <section aria-labelledby="invite-heading" className="rounded-[var(--radius-card)] border border-border bg-white p-5 shadow-sm sm:p-6">
      <h2 id="invite-heading" className="text-lg font-semibold text-slate-900">
        Invite a tutor
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        We email them a link to sign up with their Google account; their application then appears below and under Tutor Applications.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1 space-y-1.5">
          <Label htmlFor="tutor-email">Tutor email</Label>
          <Input id="tutor-email" type="email" autoComplete="off" placeholder="tutor@example.com" {...form.register('email')} />
        </div>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
          {invite.isPending ? 'Sending...' : 'Send invitation'}
        </Button>
      </form>
    </section>
  );
}

function PendingApplications() {
  const pending = useQuery({ queryKey: tutorsConsoleApi.pendingTutorsKey, queryFn: tutorsConsoleApi.pendingTutors });
  return (
    <section aria-labelledby="pending-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <h2 id="pending-heading" className="border-b border-border px-5 py-4 text-lg font-semibold text-slate-900">
        Pending tutor applications
      </h2>
      {pending.isPending ? (
        <div className="space-y-3 p-5" aria-busy="true">
          <span className="sr-only">Loading applications</span>
          {[0, 1].map((i) => (
            <div key={i} className="h-20 animate-pulse rounded-md bg-slate-100" />
          ))}
        </div>
      ) : pending.isError ? (
        <div className="p-5">
          <LoadError
            title="The applications could not be loaded"
            message={errorMessage(pending.error, 'The server did not answer as expected.')}
            onRetry={() => void pending.refetch()}
            retrying={pending.isFetching}
          />
        </div>
      ) : pending.data.length === 0 ? (
        <div className="flex flex-col items-center px-6 py-10 text-center">
          <Inbox className="size-9 text-slate-400" aria-hidden="true" />
          <p className="mt-3 font-medium text-slate-900">No pending applications</p>
        </div>
      ) : (
        <ul className="divide-y divide-border">
          {pending.data.map((user) => (
            <PendingItem key={user.id} user={user} />
          ))}
        </ul>
      )}
    </section>
  );
}

function StatusBadge({ status }: { status: string }) {
  if (status === 'pending') return <Badge variant="secondary">pending</Badge>;
  if (status === 'approved') return <Badge>approved</Badge>;
  return <Badge variant="destructive">{status}</Badge>;
}

function PendingItem({ user }: { user: AdminListedUser }) {
  const name = applicantName(user);
  const approve = useReview({
    run: () => tutorsConsoleApi.approveTutor(user.id),
    success: { title: 'Tutor Approved', description: 'The tutor account has been approved and activated.' },
    fallback: 'Failed to approve tutor',
  });
  const reject = useReview({
    run: () => tutorsConsoleApi.rejectTutor(user.id),
    success: { title: 'Application Rejected', description: 'The tutor application has been rejected.' },
    fallback: 'Failed to reject tutor',
  });
  const busy = approve.isPending || reject.isPending;
  const who = name ?? user.email;

  return (
    <li className="flex flex-col gap-4 px-5 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="pending-tutor">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900">{name ?? 'Name not provided'}</span>
          <StatusBadge status={user.status} />
        </div>
        <p className="text-sm break-all text-slate-600">{user.email}</p>
        <p className="text-xs text-slate-500">
          Applied <time dateTime={user.createdAt}>{shortDate(user.createdAt)}</time>
        </p>
        {user.googleId ? (
          <p className="flex items-center gap-1 text-xs font-medium text-success">
            <BadgeCheck className="size-3.5" aria-hidden="true" />
            Google account verified
          </p>
        ) : null}
      </div>
      {user.status === 'pending' ? (
        <div className="flex shrink-0 gap-2">
          <ApproveApplicant who={who} pending={approve.isPending} disabled={busy} onConfirm={approve.start} />
          <Button size="sm" variant="outline" disabled={busy} onClick={reject.start}>
            {reject.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
            {reject.isPending ? 'Rejecting...' : 'Reject'}
            <span className="sr-only"> {who}</span>
          </Button>
        </div>
      ) : null}
    </li>
  );
}
