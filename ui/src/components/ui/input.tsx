import type * as React from 'react';
import { cn } from '../../lib/utils.ts';

export const fieldClasses =
  'w-full rounded-md border border-input bg-background px-3 text-base text-foreground shadow-sm transition-colors sm:text-sm ' +
  'placeholder:text-slate-500 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive';

export function Input({ className, type = 'text', ...props }: React.ComponentProps<'input'>) {
  return <input data-slot="input" type={type} className={cn(fieldClasses, 'h-10 py-2', className)} {...props} />;
}
