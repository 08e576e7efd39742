import type { PromoValidation } from '@shared/promoCodes/promoCodeApi.ts';
import { ENTER_PROMO_CODE } from '@shared/promoCodes/promoCodeApi.ts';
import { useMutation } from '@tanstack/react-query';
import { CircleAlert, Loader2, Tag, X } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { cn } from '../../lib/utils.ts';
import { purchasesApi } from './api.ts';
import { dollars } from './storage.ts';

/** Spec part 2 §5: a promo code needs a signed-in buyer. */
export const NOT_LOGGED_IN = 'You must be logged in to use promo codes';

/**
 * The promo code entry of checkout and of a course's repurchase (spec part 2 §5): uppercased,
 * Enter applies, the code is checked against the package, an applied code locks the input until
 * removed; `locked` (the payment under way) freezes it altogether.
 */
export function PromoCodeField({
  packageId,
  userId,
  applied,
  onApplied,
  locked = false,
  showApplied = false,
  className,
}: {
  packageId: string;
  /** The signed-in buyer; null: the code is refused with NOT_LOGGED_IN before any call. */
  userId: string | null;
  applied: PromoValidation | null;
  onApplied: (promo: PromoValidation | null) => void;
  locked?: boolean;
  /** Say under the field which code is applied and what it is. */
  showApplied?: boolean;
  className?: string;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const validate = useMutation({
    mutationFn: (value: string) => {
      if (!userId) throw new Error(NOT_LOGGED_IN);
      return purchasesApi.validatePromo({ code: value, packageId, userId });
    },
    onSuccess: (result) => {
      setError(null);
      onApplied(result);
      toast({ title: 'Promo Code Applied', description: `You save ${dollars(result.discountAmount)}.`, variant: 'success' });
    },
    onError: (e) => setError(e.message === NOT_LOGGED_IN ? NOT_LOGGED_IN : errorMessage(e, 'Failed to validate promo code')),
  });

  const apply = () => {
    const value = code.trim().toUpperCase();
    setCode(value);
    if (!value) return setError(ENTER_PROMO_CODE);
    if (!userId) return setError(NOT_LOGGED_IN);
    validate.mutate(value);
  };

  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={`${id}-promo`}>Promo code</Label>
      <div className="flex gap-2">
        <Input
          id={`${id}-promo`}
          value={applied ? applied.promoCode.code : code}
          readOnly={applied !== null || locked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-promo-error` : undefined}
          placeholder="Enter promo code"
          autoCapitalize="characters"
          onChange={(e) => setCode(e.target.value.toUpperCase())}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !applied && !locked) {
              e.preventDefault();
              apply();
            }
          }}
        />
        {applied ? (
          <Button
            type="button"
            variant="outline"
            disabled={locked}
            onClick={() => {
              onApplied(null);
              setCode('');
              toast({ title: 'Promo Code Removed', description: 'Pricing has been restored to original amount' });
            }}
          >
            <X aria-hidden="true" />
            Remove
          </Button>
        ) : (
          <Button type="button" variant="outline" onClick={apply} disabled={validate.isPending || locked}>
            {validate.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Tag aria-hidden="true" />}
            {validate.isPending ? 'Applying...' : 'Apply'}
          </Button>
        )}
      </div>
      {showApplied && applied ? (
        <p className="text-sm text-success" data-testid="promo-applied">
          {applied.promoCode.code} applied{applied.promoCode.description ? `: ${applied.promoCode.description}` : ''}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-promo-error`} role="alert" className="flex items-center gap-1.5 text-sm font-medium text-destructive-text">
          <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
          {error}
        </p>
      ) : null}
    </div>
  );
}
