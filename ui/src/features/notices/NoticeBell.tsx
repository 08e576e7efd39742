import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Bell, CheckCheck, Loader2 } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { cn } from '../../lib/utils.ts';
import { type NoticeList, noticeKeys, noticesApi } from './api.ts';

type Notice = NoticeList['notices'][number];

/** "Dec 3, 2026, 10:00 AM EST" in the reader's zone (the zone named: a session's time). */
export function noticeTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return `${new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(at)} ${
      new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')
        ?.value ?? ''
    }`.trim();
  } catch {
    return new Intl.DateTimeFormat('en-US', options).format(at);
  }
}

/** "5 min ago", "3 h ago", then the date: when the notice arrived. */
function ago(iso: string, now: number, timeZone: string): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`;
  try {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(iso));
  }
}

function NoticeItem({ notice, timeZone, onOpen }: { notice: Notice; timeZone: string; onOpen: (n: Notice) => void }) {
  const unread = notice.readAt === null;
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(notice)}
        className={cn(
          'block w-full rounded-md px-3 py-2.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-700',
          unread && 'bg-brand-50/60',
        )}
        data-testid="notice"
        data-unread={unread ? 'true' : 'false'}
      >
        <span className="flex items-start gap-2">
          <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', unread ? 'bg-brand-700' : 'bg-transparent')} />
          <span className="min-w-0 flex-1">
            <span className={cn('block text-sm text-slate-900', unread ? 'font-semibold' : 'font-medium')}>
              {unread ? <span className="sr-only">Unread: </span> : null}
              {notice.title}
            </span>
            {notice.at ? (
              <span className="block text-sm text-slate-700">
                {notice.previousAt ? `${noticeTime(notice.previousAt, timeZone)} → ` : ''}
                {noticeTime(notice.at, timeZone)}
              </span>
            ) : null}
            <span className="block text-sm text-slate-600">{notice.body}</span>
            <span className="mt-0.5 block text-xs text-slate-600">{ago(notice.occurredAt, Date.now(), timeZone)}</span>
          </span>
        </span>
      </button>
    </li>
  );
}

/**
 * The dashboards' bell (issue 22 §4): the unread count on the button, and in a popover the latest
 * 20 notices, unread first, with "Mark all read". Radix's popover moves focus into the list when it
 * opens, closes on Escape and gives focus back to the bell.
 */
export function NoticeBell({ timeZone }: { timeZone: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const list = useQuery({ queryKey: noticeKeys.list, queryFn: noticesApi.list, refetchInterval: 60_000 });
  const markRead = useMutation({
    mutationFn: noticesApi.markRead,
    onSuccess: (answer) => queryClient.setQueryData(noticeKeys.list, answer),
    onError: (error) =>
      toast({ title: 'Could not mark notices read', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const unread = list.data?.unread ?? 0;
  const notices = list.data?.notices ?? [];
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  const navigate = useNavigate();
  /** Read, and shown where it happened: every notice's link is the dashboard, which sends each role to its own. */
  const openNotice = (n: Notice) => {
    setOpen(false);
    if (n.readAt === null) markRead.mutate({ ids: [n.id] });
    void navigate({ to: '/dashboard' });
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label} data-testid="notice-bell">
          <Bell aria-hidden="true" className="size-5" />
          {unread > 0 ? (
            <span
              aria-hidden="true"
              className="absolute -top-0.5 -right-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] leading-5 font-semibold text-white"
              data-testid="notice-count"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          aria-label="Notifications"
          className="z-50 w-[min(24rem,calc(100vw-2rem))] rounded-[var(--radius-card)] border border-border bg-white shadow-xl focus:outline-none"
          data-testid="notice-list"
        >
          <div className="flex items-center justify-between gap-2 border-b border-border px-4 py-3">
            <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
            <Button variant="ghost" size="sm" disabled={unread === 0 || markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
              {markRead.isPending ? (
                <Loader2 aria-hidden="true" className="size-4 animate-spin" />
              ) : (
                <CheckCheck aria-hidden="true" className="size-4" />
              )}
              Mark all read
            </Button>
          </div>
          <div className="max-h-[min(28rem,70dvh)] overflow-y-auto p-1.5">
            {list.isPending ? (
              <p className="px-3 py-6 text-center text-sm text-slate-600">Loading…</p>
            ) : list.isError ? (
              <div className="px-3 py-6 text-center text-sm text-slate-600">
                <p>Could not load your notifications.</p>
                <Button variant="link" size="sm" onClick={() => void list.refetch()}>
                  Try again
                </Button>
              </div>
            ) : notices.length === 0 ? (
              <p className="px-3 py-6 text-center text-sm text-slate-600">No notifications yet.</p>
            ) : (
              <ul className="space-y-0.5">
                {notices.map((n) => (
                  <NoticeItem key={n.id} notice={n} timeZone={timeZone} onOpen={openNotice} />
                ))}
              </ul>
            )}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
