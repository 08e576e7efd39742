import { useQuery } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { cn } from '../../lib/utils.ts';
import { accountsApi } from './api.ts';

/** True when GET /api/dev/mailbox answers 200. Asked once per page load. */
export function useDevMailboxAvailable(): boolean {
  const { data } = useQuery({
    queryKey: ['dev-mailbox-available'],
    queryFn: async ({ signal }) => {
      try {
        const res = await fetch(accountsApi.devMailboxKey[0], { credentials: 'include', signal });
        return res.status === 200;
      } catch {
        return false;
      }
    },
  });
  return data === true;
}

/** "Open the dev mailbox" (new tab), shown only when the dev mailbox exists. */
export function DevMailboxLink({ className }: { className?: string }) {
  const available = useDevMailboxAvailable();
  if (!available) return null;
  return (
    <p className={cn('flex items-center gap-1.5 text-sm text-slate-600', className)}>
      <Inbox className="size-4 shrink-0 text-brand-700" aria-hidden="true" />
      <span>
        No real e-mail on this server:{' '}
        <a href="/dev/mailbox" target="_blank" rel="noopener" className="font-medium text-brand-700 underline-offset-4 hover:underline">
          Open the dev mailbox
        </a>
      </span>
    </p>
  );
}
