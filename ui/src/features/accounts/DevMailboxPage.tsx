import { useQuery } from '@tanstack/react-query';
import { CircleAlert, Inbox, Loader2, RotateCw } from 'lucide-react';
import { readApiError } from '../../app/auth/apiErrors.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { accountsApi } from './api.ts';
import { MailList } from './MailList.tsx';

/**
 * /dev/mailbox: the mails the outbox mailer captured instead of sending (development and tests
 * without SMTP), newest first.
 */
export function DevMailboxPage() {
  useDocumentTitle('Dev Mailbox');
  const { data, isPending, isError, error, refetch, isFetching } = useQuery({
    queryKey: accountsApi.devMailboxKey,
    queryFn: accountsApi.devMailbox,
  });
  const mails = [...(data?.mails ?? [])].sort((a, b) => b.sentAt.localeCompare(a.sentAt));
  const failure = isError ? readApiError(error) : null;

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900">
            <Inbox className="size-6 text-brand-700" aria-hidden="true" />
            Dev mailbox
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            E-mails this server would have sent. Only available when no SMTP server is configured.
          </p>
        </div>
        <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
          <RotateCw className={isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
          {isFetching ? 'Refreshing...' : 'Refresh'}
        </Button>
      </div>

      <div className="mt-8">
        {isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
            Loading mail...
          </p>
        ) : failure ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertTitle>
              {failure.kind === 'http' && failure.status === 404 ? 'The dev mailbox is off' : 'Could not load the mailbox'}
            </AlertTitle>
            <AlertDescription>
              {failure.kind === 'http' && failure.status === 404
                ? 'This server sends real e-mail through SMTP, so there is nothing to show here.'
                : 'The server did not answer. Try Refresh.'}
            </AlertDescription>
          </Alert>
        ) : mails.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-slate-600">No mail has been sent yet.</p>
        ) : (
          <MailList mails={mails} />
        )}
      </div>
    </section>
  );
}
