import { calendarFeedLinkSchema, calendarFeedStatusSchema } from '@shared/sessions/calendarFeedApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarPlus, Copy, Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { api, errorMessage } from '../../app/api.ts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast.tsx';

const FEED_KEY = ['/api/calendar-feed'] as const;

/**
 * "Calendar feed" (issue 22 §3): a private subscription link for any calendar app. Only the link's
 * hash is kept on the server, so the link is shown when it is made; "Reset link" (confirmed) makes
 * a new one and the old one stops working at once.
 */
export function CalendarFeedCard() {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState<string | null>(null);
  const status = useQuery({ queryKey: FEED_KEY, queryFn: () => api.get('/api/calendar-feed', calendarFeedStatusSchema) });
  const issue = useMutation({
    mutationFn: () => api.send('POST', '/api/calendar-feed', undefined, calendarFeedLinkSchema),
    onSuccess: (link) => {
      setUrl(link.url);
      void queryClient.invalidateQueries({ queryKey: FEED_KEY });
    },
    onError: (error) =>
      toast({ title: 'Could not make a calendar link', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Copied', description: 'Paste the link into your calendar app as a subscription.', variant: 'success' });
    } catch {
      toast({ title: 'Could not copy', description: 'Select the link and copy it yourself.', variant: 'destructive' });
    }
  };
  const active = status.data?.active === true;
  return (
    <section
      aria-labelledby="calendar-feed-heading"
      className="mt-8 rounded-[var(--radius-card)] border border-border bg-white p-6 shadow-sm"
      data-testid="calendar-feed"
    >
      <h2 id="calendar-feed-heading" className="text-base font-semibold text-slate-900">
        Calendar feed
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Subscribe to your sessions (the last 30 days and the next 90) in Google Calendar, Apple Calendar or Outlook. Anyone with the link
        can see them: keep it private, and reset it if it was shared.
      </p>
      {url ? (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          <Input readOnly value={url} aria-label="Your calendar feed link" onFocus={(e) => e.currentTarget.select()} />
          <Button type="button" onClick={() => void copy()}>
            <Copy aria-hidden="true" />
            Copy link
          </Button>
        </div>
      ) : null}
      {url ? (
        <p className="mt-2 text-xs text-slate-500">This link is shown only now. If you lose it, reset it to get a new one.</p>
      ) : active ? (
        <p className="mt-2 text-sm text-slate-600">
          You have a calendar link (made {new Date(status.data?.issuedAt ?? '').toLocaleDateString()}). For your security it is not shown
          again.
        </p>
      ) : null}
      <div className="mt-4 flex gap-2">
        {!active && !url ? (
          <Button type="button" variant="outline" disabled={issue.isPending || status.isPending} onClick={() => issue.mutate()}>
            {issue.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CalendarPlus aria-hidden="true" />}
            Get calendar link
          </Button>
        ) : (
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button type="button" variant="outline" disabled={issue.isPending}>
                {issue.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RefreshCw aria-hidden="true" />}
                Reset link
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Reset your calendar link?</AlertDialogTitle>
                <AlertDialogDescription>
                  The current link stops working at once: calendars subscribed to it no longer update. You get a new link to subscribe with.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel asChild>
                  <Button variant="outline">Cancel</Button>
                </AlertDialogCancel>
                <AlertDialogCancel asChild>
                  <Button onClick={() => issue.mutate()}>Reset link</Button>
                </AlertDialogCancel>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        )}
      </div>
    </section>
  );
}
