import { zodResolver } from '@hookform/resolvers/zod';
import { optionalNoticeKinds } from '@shared/notices/notices.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Save } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage } from '../../app/api.ts';
import { checkboxClasses } from '../../components/FieldMessage.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { noticeKeys, noticesApi } from './api.ts';

const formSchema = z.object(
  Object.fromEntries(optionalNoticeKinds.map((k) => [k, z.boolean()])) as Record<(typeof optionalNoticeKinds)[number], z.ZodBoolean>,
);
type FormValues = z.output<typeof formSchema>;

const LABELS: Record<(typeof optionalNoticeKinds)[number], { label: string; hint: string }> = {
  sessionBooked: { label: 'Session booked', hint: 'A new session, with a calendar file.' },
  sessionRescheduled: { label: 'Session moved', hint: 'The old and the new time, with a calendar file.' },
  sessionCancelled: { label: 'Session cancelled', hint: 'Who cancelled and what happened to the credit.' },
  sessionCompleted: { label: 'Session completed', hint: "The tutor's report for the family." },
  sessionReminders: { label: 'Reminders', hint: 'A day and an hour before each session.' },
};

/**
 * "Notifications" (issue 22 §4): which optional notices come by e-mail. Receipts, refunds, payouts
 * and application decisions always do; every notice is in the bell whatever is chosen here.
 */
export function NotificationSettingsCard() {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: noticeKeys.settings, queryFn: noticesApi.settings });
  const form = useForm<z.input<typeof formSchema>, unknown, FormValues>({ resolver: zodResolver(formSchema) });
  const { reset } = form;
  useEffect(() => {
    if (settings.data) reset(settings.data.email);
  }, [settings.data, reset]);
  const save = useMutation({
    mutationFn: (email: FormValues) => noticesApi.saveSettings({ email }),
    onSuccess: (answer) => {
      queryClient.setQueryData(noticeKeys.settings, answer);
      reset(answer.email);
      toast({ title: 'Notification settings saved', variant: 'success' });
    },
    onError: (error) =>
      toast({ title: 'Could not save your settings', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <section
      aria-labelledby="notification-settings-heading"
      className="mt-8 rounded-[var(--radius-card)] border border-border bg-white p-6 shadow-sm"
      data-testid="notification-settings"
    >
      <h2 id="notification-settings-heading" className="text-base font-semibold text-slate-900">
        Notifications
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Choose which notices we e-mail you. Receipts, refunds, payouts and decisions on applications are always e-mailed. Everything stays
        in the bell at the top of the page.
      </p>
      {settings.isPending ? (
        <div className="mt-4 space-y-3" role="status" aria-busy="true" aria-label="Loading notification settings">
          {optionalNoticeKinds.map((k) => (
            <div key={k} className="h-5 w-64 animate-pulse rounded bg-slate-100" />
          ))}
        </div>
      ) : settings.isError ? (
        <div className="mt-4 text-sm text-slate-600">
          <p>Could not load your notification settings.</p>
          <Button variant="link" size="sm" className="px-0" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <form className="mt-4" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
          <fieldset>
            <legend className="text-sm font-medium text-slate-900">E-mail me when</legend>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              {optionalNoticeKinds.map((kind) => (
                <div key={kind} className="flex items-start gap-2.5">
                  <input id={`notice-${kind}`} type="checkbox" className={checkboxClasses} {...form.register(kind)} />
                  <label htmlFor={`notice-${kind}`} className="text-sm">
                    <span className="block font-medium text-slate-900">{LABELS[kind].label}</span>
                    <span className="block text-slate-600">{LABELS[kind].hint}</span>
                  </label>
                </div>
              ))}
            </div>
          </fieldset>
          <Button type="submit" className="mt-5" disabled={save.isPending || !form.formState.isDirty}>
            {save.isPending ? <Loader2 aria-hidden="true" className="animate-spin" /> : <Save aria-hidden="true" />}
            {save.isPending ? 'Saving…' : 'Save notification settings'}
          </Button>
        </form>
      )}
    </section>
  );
}
