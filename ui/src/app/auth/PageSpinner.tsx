import { Loader2 } from 'lucide-react';

/** A centred spinner with a text for screen readers and sighted users. */
export function PageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-[50vh] flex-col items-center justify-center gap-3 px-4 py-16 text-slate-600"
    >
      <Loader2 className="size-8 animate-spin text-brand-700" aria-hidden="true" />
      <span className="text-sm">{label}</span>
    </div>
  );
}
