import { Check } from 'lucide-react';
import { ConfirmAction } from '../../components/console/ConfirmAction.tsx';

/**
 * Approve a tutor applicant, after a confirmation: approval creates a tutor account and e-mails the
 * applicant, which one stray click should not do (Tutor Applications and Create Tutor both use it).
 */
export function ApproveApplicant({
  who,
  pending,
  disabled,
  onConfirm,
}: {
  who: string;
  pending: boolean;
  disabled: boolean;
  onConfirm: () => void;
}) {
  return (
    <ConfirmAction
      label="Approve"
      pendingLabel="Approving..."
      hiddenLabel={who}
      title={`Approve ${who}?`}
      description="This creates their tutor account and e-mails them to sign in and finish their profile. Families can book them once their profile is complete."
      confirmLabel="Approve tutor"
      onConfirm={onConfirm}
      pending={pending}
      disabled={disabled}
      variant="default"
      icon={<Check aria-hidden="true" />}
    />
  );
}
