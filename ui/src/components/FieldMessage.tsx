import { CircleAlert } from 'lucide-react';
import type { FieldError } from 'react-hook-form';

/** The validation message under a field (id referenced by the field's aria-describedby). */
export function FieldMessage({ id, error }: { id: string; error: Pick<FieldError, 'message'> | undefined }) {
  if (!error?.message) return null;
  return (
    <p id={id} className="flex items-center gap-1.5 text-sm font-medium text-destructive-text">
      <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
      {error.message}
    </p>
  );
}

/** aria-invalid / aria-describedby for a field whose message element has id `${id}-error`. */
export function fieldA11y(id: string, error: unknown, hint?: string) {
  const describedBy = [hint, error ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
}

/** The classes of a native checkbox in the brand colour. */
export const checkboxClasses = 'mt-0.5 size-4 shrink-0 rounded border-input accent-brand-700';

/** The classes of a native <select> that matches <Input>. */
export const selectClasses =
  'h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base text-foreground shadow-sm transition-colors sm:text-sm ' +
  'focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive';
