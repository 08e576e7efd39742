import { zodResolver } from '@hookform/resolvers/zod';
import { helpMessageSchema } from '@shared/contact/contactMessage.ts';
import { useMutation } from '@tanstack/react-query';
import { LifeBuoy, Loader2, Send } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../app/api.ts';
import { FieldMessage, fieldA11y } from '../../components/FieldMessage.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { dashboardsApi } from './api.ts';

/** Spec part 2 §5 "Support message: subject and message required" (the server's rule, shared). */
const helpFormSchema = helpMessageSchema.pick({ subject: true, message: true });
type HelpFormValues = z.output<typeof helpFormSchema>;

/**
 * The Help dialog of the student area (spec part 2 §2 "contact support: subject and message"):
 * POST /api/contact/help with the sender's name and the student; a success toast says when support
 * replies (spec part 2 §9: within 24 hours), a failure toast gives the server's reason.
 */
export function HelpDialog({ name, studentId }: { name: string; studentId: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <LifeBuoy aria-hidden="true" />
        Help
      </Button>
      <DialogContent aria-describedby="help-description">
        <DialogHeader>
          <DialogTitle>Contact support</DialogTitle>
          <DialogDescription id="help-description">
            Tell us what you need help with. We reply by e-mail within 24 hours (Mon-Fri 9 AM-6 PM EST).
          </DialogDescription>
        </DialogHeader>
        {open ? <HelpForm name={name} studentId={studentId} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function HelpForm({ name, studentId, onDone }: { name: string; studentId: string | null; onDone: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<HelpFormValues>({ resolver: zodResolver(helpFormSchema), defaultValues: { subject: '', message: '' } });
  const send = useMutation({
    mutationFn: (values: HelpFormValues) => dashboardsApi.sendHelp({ ...values, name, studentId }),
    onSuccess: () => {
      toast({ title: 'Message sent', description: 'Our support team will reply within 24 hours.', variant: 'success' });
      onDone();
    },
    onError: (error) =>
      toast({ title: 'Error', description: errorMessage(error, 'Failed to send your message. Please try again.'), variant: 'destructive' }),
  });
  const pending = send.isPending;
  return (
    <form noValidate className="grid gap-4" onSubmit={handleSubmit((values) => send.mutate(values))}>
      <div className="space-y-2">
        <Label htmlFor="help-subject">Subject</Label>
        <Input id="help-subject" maxLength={200} {...fieldA11y('help-subject', errors.subject)} {...register('subject')} />
        <FieldMessage id="help-subject-error" error={errors.subject} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="help-message">Message</Label>
        <Textarea id="help-message" rows={5} maxLength={5000} {...fieldA11y('help-message', errors.message)} {...register('message')} />
        <FieldMessage id="help-message-error" error={errors.message} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
          {pending ? 'Sending...' : 'Send message'}
        </Button>
      </DialogFooter>
    </form>
  );
}
