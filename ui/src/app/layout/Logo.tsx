import { cn } from '../../lib/utils.ts';

/** The Topmark word mark: an indigo tile with a "T" and an emerald dot. */
export function Logo({ className, inverse = false }: { className?: string; inverse?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 text-xl font-bold tracking-tight', className)}>
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill={inverse ? '#ffffff' : '#352d9e'} />
        <path d="M9 10h14v3.2h-5.3V24h-3.4V13.2H9z" fill={inverse ? '#352d9e' : '#ffffff'} />
        <circle cx="23.5" cy="22.5" r="2.5" fill="#34d399" />
      </svg>
      <span className={inverse ? 'text-white' : 'text-brand-900'}>Topmark</span>
    </span>
  );
}
