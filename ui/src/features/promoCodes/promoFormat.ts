import type { PromoCode, PromoCodeFormValues } from '@shared/promoCodes/promoCodeApi.ts';

/** "10%" / "12.5%" for a percentage, "$5.50" for a fixed amount (spec part 2 §2: dollars with 2 decimals). */
export function discountLabel(promo: Pick<PromoCode, 'discountType' | 'discountValue'>): string {
  const value = Number(promo.discountValue);
  return promo.discountType === 'percentage' ? `${value}%` : `$${value.toFixed(2)}`;
}

/** "3/10", or "3 (unlimited)" without a limit. */
export function usesLabel(promo: Pick<PromoCode, 'currentUses' | 'maxUses'>): string {
  return promo.maxUses === null ? `${promo.currentUses} (unlimited)` : `${promo.currentUses}/${promo.maxUses}`;
}

/** An instant as a datetime-local input holds it, in the viewer's zone ("2026-11-23T15:04"). */
export function localInputValue(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The edit form's starting values: the code's current terms. */
export function formValuesOf(promo: PromoCode | null): PromoCodeFormValues {
  // The spec's defaults (part 2 §5): a percentage, active.
  if (!promo)
    return {
      code: '',
      description: '',
      discountType: 'percentage',
      discountValue: '',
      maxUses: '',
      maxUsesPerPerson: '',
      validFrom: '',
      validUntil: '',
      isActive: true,
    };
  return {
    code: promo.code,
    description: promo.description ?? '',
    discountType: promo.discountType,
    discountValue: String(Number(promo.discountValue)),
    maxUses: promo.maxUses === null ? '' : String(promo.maxUses),
    maxUsesPerPerson: promo.maxUsesPerPerson === null ? '' : String(promo.maxUsesPerPerson),
    validFrom: localInputValue(promo.validFrom),
    validUntil: localInputValue(promo.validUntil),
    isActive: promo.isActive,
  };
}
