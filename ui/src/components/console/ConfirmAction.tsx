import { Loader2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '../ui/alert-dialog.tsx';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog.tsx';
import { Label } from '../ui/label.tsx';
import { Textarea } from '../ui/textarea.tsx';

/** A button whose action runs only after the operator confirms it (rebuilds, job retries, approvals). */
export function ConfirmAction({
  label,
  pendingLabel,
  hiddenLabel,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending,
  disabled,
  variant = 'outline',
  icon,
}: {
  label: string;
  /** The button's words while the action runs (default: `label`). */
  pendingLabel?: string;
  /** Words only screen readers hear after the label: whom a row's button acts on. */
  hiddenLabel?: string;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending: boolean;
  disabled?: boolean;
  variant?: 'outline' | 'default' | 'destructive';
  icon?: ReactNode;
}) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        {/* While the action runs the button reads as disabled but stays focusable: focus comes back to it when the dialog closes. */}
        <Button
          size="sm"
          variant={variant}
          disabled={disabled}
          aria-disabled={pending || undefined}
          onClick={(event) => {
            if (pending) event.preventDefault();
          }}
        >
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : icon}
          {pending && pendingLabel ? pendingLabel : label}
          {hiddenLabel ? <span className="sr-only"> {hiddenLabel}</span> : null}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">Cancel</Button>
          </AlertDialogCancel>
          <AlertDialogAction asChild>
            <Button variant={variant === 'destructive' ? 'destructive' : 'default'} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** A button opening a dialog that asks why (a required reason) before the action runs. */
export function ReasonAction({
  label,
  title,
  description,
  submitLabel,
  pendingLabel,
  placeholder,
  maxLength,
  pending,
  onSubmit,
}: {
  label: string;
  title: string;
  description: ReactNode;
  submitLabel: string;
  pendingLabel: string;
  placeholder: string;
  maxLength: number;
  pending: boolean;
  /** Resolves true when the action succeeded (the dialog then closes). */
  onSubmit: (reason: string) => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const submit = async () => {
    if (!reason.trim()) {
      setError('Please say why');
      return;
    }
    setError(null);
    if (await onSubmit(reason.trim())) {
      setOpen(false);
      setReason('');
    }
  };
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)} disabled={pending}>
        {label}
      </Button>
      <Dialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
            className="space-y-2"
          >
            <Label htmlFor={reasonId}>Reason</Label>
            <Textarea
              id={reasonId}
              value={reason}
              maxLength={maxLength}
              rows={3}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${reasonId}-error` : undefined}
              onChange={(event) => setReason(event.target.value)}
              placeholder={placeholder}
            />
            {error ? (
              <p id={`${reasonId}-error`} className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" disabled={pending} onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? pendingLabel : submitLabel}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
