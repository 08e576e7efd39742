import type * as React from 'react';
import { cn } from '../../lib/utils.ts';

export type BadgeVariant = 'default' | 'secondary' | 'outline' | 'success' | 'destructive';

const variants: Record<BadgeVariant, string> = {
  default: 'border-transparent bg-primary text-primary-foreground',
  secondary: 'border-transparent bg-brand-50 text-brand-800',
  outline: 'border-border text-foreground',
  success: 'border-transparent bg-success-muted text-success',
  destructive: 'border-transparent bg-destructive text-white',
};

export function Badge({ className, variant = 'default', ...props }: React.ComponentProps<'span'> & { variant?: BadgeVariant }) {
  return (
    <span
      data-slot="badge"
      className={cn(
        'inline-flex w-fit items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap [&_svg]:size-3',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
