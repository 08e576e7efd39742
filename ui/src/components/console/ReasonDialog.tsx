import { type ReactNode, useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog.tsx';
import { Label } from '../ui/label.tsx';
import { Textarea } from '../ui/textarea.tsx';

/** The server's limit on an admin action's reason (after trimming). */
export const REASON_MAX = 500;

export interface ReasonDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  reasonLabel: string;
  placeholder?: string;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  destructive?: boolean;
  /** More fields between the reason and the buttons (the credit choice of a cancellation). */
  children?: ReactNode;
  onConfirm: (reason: string) => void;
}

/**
 * An admin action that needs a reason (deactivate, reactivate, cancel a session): the reason is
 * required, 1–500 characters after trimming; the server checks the same and records it.
 */
export function ReasonDialog(props: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = () => {
    const trimmed = reason.trim();
    if (!trimmed) return setError('Please give a reason');
    if (trimmed.length > REASON_MAX) return setError(`A reason must be at most ${REASON_MAX} characters`);
    setError(null);
    props.onConfirm(trimmed);
  };
  const close = (next: boolean) => {
    if (props.pending) return;
    if (!next) {
      setReason('');
      setError(null);
    }
    props.onOpenChange(next);
  };
  return (
    // The dialog renders in a portal, but React bubbles its clicks through the table row that holds
    // the action, whose click opens the entity's history: they stop here. No visible element.
    // biome-ignore lint/a11y/noStaticElementInteractions: a propagation boundary, not a control
    // biome-ignore lint/a11y/useKeyWithClickEvents: keys inside the dialog are handled by its controls
    <div className="contents" onClick={(event) => event.stopPropagation()}>
      <Dialog open={props.open} onOpenChange={close}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{props.title}</DialogTitle>
            <DialogDescription asChild>
              <div>{props.description}</div>
            </DialogDescription>
          </DialogHeader>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
            className="space-y-4"
          >
            <div className="space-y-2">
              <Label htmlFor={id}>{props.reasonLabel}</Label>
              <Textarea
                id={id}
                value={reason}
                maxLength={REASON_MAX * 2}
                rows={3}
                aria-required="true"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => setReason(event.target.value)}
                placeholder={props.placeholder}
              />
              {error ? (
                <p id={`${id}-error`} className="text-sm text-destructive">
                  {error}
                </p>
              ) : null}
            </div>
            {props.children}
            <DialogFooter>
              <Button type="button" variant="outline" disabled={props.pending} onClick={() => close(false)}>
                Back
              </Button>
              <Button type="submit" variant={props.destructive ? 'destructive' : 'default'} disabled={props.pending}>
                {props.pending ? props.pendingLabel : props.confirmLabel}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
