import { X } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';
import { TOAST_DEFAULT_DURATION, TOAST_SWIPE_THRESHOLD, type ToastVariant, useToast } from './use-toast.ts';

export {
  dismissToasts,
  TOAST_DEFAULT_DURATION,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  TOAST_SWIPE_THRESHOLD,
  type ToastOptions,
  type ToastVariant,
  toast,
  useToast,
} from './use-toast.ts';

const variantClasses: Record<ToastVariant, string> = {
  default: 'border-border bg-background text-foreground',
  success: 'border-success-border bg-success-muted text-success',
  destructive: 'border-destructive bg-destructive text-white',
};

/**
 * Renders the toast store through Radix Toast. Mount once near the root. The viewport is reached
 * with F8 (Radix's default hotkey, set explicitly here).
 */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastPrimitive.Provider duration={TOAST_DEFAULT_DURATION} swipeThreshold={TOAST_SWIPE_THRESHOLD} swipeDirection="right">
      {toasts.map(({ id, title, description, action, variant = 'default', duration, open, onOpenChange }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          onOpenChange={onOpenChange}
          {...(duration !== undefined ? { duration } : {})}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-10 shadow-lg',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
            variantClasses[variant],
          )}
        >
          <div className="grid gap-1">
            {title ? <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title> : null}
            {description ? (
              // Softened only on the neutral toast: white on red and dark green on pale green need full strength for AA contrast.
              <ToastPrimitive.Description className={cn('text-sm', variant === 'default' && 'opacity-90')}>
                {description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          {action}
          <ToastPrimitive.Close
            aria-label="Close notification"
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100"
          >
            <X className="size-4" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={['F8']}
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 sm:top-auto sm:right-0 sm:bottom-0 sm:flex-col md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
