import { zodResolver } from '@hookform/resolvers/zod';
import { contactMessageSchema } from '@shared/contact/contactMessage.ts';
import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, CircleAlert, Loader2, Send } from 'lucide-react';
import type * as React from 'react';
import { useState } from 'react';
import { type FieldError, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Alert, AlertDescription } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { contactApi } from './api.ts';
import { newIdempotencyKey } from './idempotencyKey.ts';

type ContactSchema = typeof contactMessageSchema;
type ContactFormInput = z.input<ContactSchema>;
type ContactFormOutput = z.output<ContactSchema>;

export const CONTACT_SUCCESS_MESSAGE =
  "Thank you for your message! We've sent a confirmation email to your inbox and will get back to you within 24 hours.";
export const CONTACT_FAILURE_MESSAGE = 'There was an error sending your message. Please try again or call us directly.';

const emptyForm: ContactFormInput = { name: '', email: '', phone: '', subject: '', message: '' };

function FieldMessage({ id, error }: { id: string; error: FieldError | undefined }) {
  if (!error?.message) return null;
  return (
    <p id={id} role="alert" className="flex items-center gap-1.5 text-sm font-medium text-destructive-text">
      <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
      {error.message}
    </p>
  );
}

/** The public contact form (spec part 1 §2, §5, §7, §8). */
export function ContactForm() {
  // One key per filled form: reused on retries of the same message, renewed after a success.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [outcome, setOutcome] = useState<'success' | 'error' | null>(null);

  const form = useForm<ContactFormInput, unknown, ContactFormOutput>({
    resolver: zodResolver(contactMessageSchema),
    defaultValues: emptyForm,
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = form;

  const mutation = useMutation({
    mutationFn: async (data: ContactFormOutput) => {
      const payload = { ...data, phone: data.phone ? data.phone : undefined };
      await contactApi.send(payload, idempotencyKey);
    },
    onSuccess: () => {
      setOutcome('success');
      reset(emptyForm);
      setIdempotencyKey(newIdempotencyKey());
    },
    onError: () => {
      setOutcome('error');
    },
  });

  const submit = handleSubmit((data) => mutation.mutate(data));
  // The previous outcome stays on screen until the next submit attempt.
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    setOutcome(null);
    void submit(event);
  };

  const pending = mutation.isPending;
  const describedBy = (name: keyof ContactFormInput, hint?: string) =>
    [hint, errors[name] ? `contact-${name}-error` : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="contact-form-heading" className="space-y-5">
      {outcome === 'success' ? (
        <Alert variant="success" data-testid="contact-success">
          <CheckCircle2 aria-hidden="true" />
          <AlertDescription>{CONTACT_SUCCESS_MESSAGE}</AlertDescription>
        </Alert>
      ) : null}
      {outcome === 'error' ? (
        <Alert variant="destructive" data-testid="contact-error">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{CONTACT_FAILURE_MESSAGE}</AlertDescription>
        </Alert>
      ) : null}

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="contact-name">Full Name</Label>
          <Input
            id="contact-name"
            autoComplete="name"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy('name')}
            {...register('name')}
          />
          <FieldMessage id="contact-name-error" error={errors.name} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-email">Email</Label>
          <Input
            id="contact-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describedBy('email')}
            {...register('email')}
          />
          <FieldMessage id="contact-email-error" error={errors.email} />
        </div>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="contact-phone">Phone (optional)</Label>
          <Input
            id="contact-phone"
            type="tel"
            autoComplete="tel"
            aria-invalid={errors.phone ? true : undefined}
            aria-describedby={describedBy('phone')}
            {...register('phone')}
          />
          <FieldMessage id="contact-phone-error" error={errors.phone} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-subject">Subject</Label>
          <Input
            id="contact-subject"
            aria-invalid={errors.subject ? true : undefined}
            aria-describedby={describedBy('subject')}
            {...register('subject')}
          />
          <FieldMessage id="contact-subject-error" error={errors.subject} />
        </div>
      </div>

      <div className="space-y-2">
        <Label htmlFor="contact-message">Message</Label>
        <Textarea
          id="contact-message"
          rows={6}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={describedBy('message', 'contact-message-hint')}
          {...register('message')}
        />
        <p id="contact-message-hint" className="text-xs text-slate-600">
          Tell us the subject, grade level and anything else that helps us answer well.
        </p>
        <FieldMessage id="contact-message-error" error={errors.message} />
      </div>

      <Button type="submit" size="lg" disabled={pending} className="w-full sm:w-auto">
        {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
        {pending ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
