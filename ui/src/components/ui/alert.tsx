import type * as React from 'react';
import { cn } from '../../lib/utils.ts';

export type AlertVariant = 'default' | 'success' | 'destructive';

const variants: Record<AlertVariant, string> = {
  default: 'border-border bg-background text-foreground [&>svg]:text-brand-700',
  success: 'border-success-border bg-success-muted text-success [&>svg]:text-success',
  destructive: 'border-destructive-border bg-destructive-muted text-destructive-text [&>svg]:text-destructive-text',
};

/**
 * A status message. Destructive alerts get role="alert" (announced at once); the others get
 * role="status" (announced politely). Pass `role` to override.
 */
export function Alert({ className, variant = 'default', role, ...props }: React.ComponentProps<'div'> & { variant?: AlertVariant }) {
  return (
    <div
      data-slot="alert"
      data-variant={variant}
      role={role ?? (variant === 'destructive' ? 'alert' : 'status')}
      className={cn(
        'relative grid w-full grid-cols-[0_1fr] items-start gap-y-0.5 rounded-lg border px-4 py-3 text-sm has-[>svg]:grid-cols-[1.25rem_1fr] has-[>svg]:gap-x-3 [&>svg]:size-5 [&>svg]:translate-y-px',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="alert-title" className={cn('col-start-2 font-semibold', className)} {...props} />;
}

export function AlertDescription({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="alert-description" className={cn('col-start-2 leading-relaxed', className)} {...props} />;
}
