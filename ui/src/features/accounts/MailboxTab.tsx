import { useQuery } from '@tanstack/react-query';
import { Inbox, Loader2, RotateCw } from 'lucide-react';
import { errorMessage } from '../../app/api.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { mailboxConsoleApi } from './consoleApi.ts';
import { MailList } from './MailList.tsx';

/** Mailbox (issue 12 §9): the mail this server kept in its outbox instead of sending, newest first. */
export function MailboxTab() {
  const mailbox = useQuery({ queryKey: mailboxConsoleApi.mailboxKey, queryFn: mailboxConsoleApi.mailbox, refetchInterval: 10_000 });
  return (
    <section aria-labelledby="mailbox-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="mailbox-heading" className="text-lg font-semibold text-slate-900">
          Sent mail{mailbox.data ? ` (${mailbox.data.mails.length})` : ''}
        </h2>
        <Button variant="outline" size="sm" onClick={() => void mailbox.refetch()} disabled={mailbox.isFetching}>
          <RotateCw className={mailbox.isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
          {mailbox.isFetching ? 'Refreshing...' : 'Refresh'}
        </Button>
      </div>
      {mailbox.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Loading mail...
        </p>
      ) : mailbox.isError ? (
        <LoadError
          title="The mailbox could not be loaded"
          message={errorMessage(mailbox.error, 'The server did not answer.')}
          onRetry={() => void mailbox.refetch()}
          retrying={mailbox.isFetching}
        />
      ) : mailbox.data.mails.length === 0 ? (
        <div className="flex flex-col items-center rounded-lg border border-dashed border-border bg-white px-6 py-12 text-center">
          <Inbox className="size-9 text-slate-400" aria-hidden="true" />
          <p className="mt-3 font-medium text-slate-900">No mail has been sent yet</p>
        </div>
      ) : (
        <MailList mails={mailbox.data.mails} />
      )}
    </section>
  );
}
