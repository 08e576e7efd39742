import { describe, expect, it } from 'vitest';
// The root vitest has no @shared alias: the shared schemas by path.
import { promoCodeFormSchema, toPromoCodeBody } from '../../../../src/domain/promoCodes/promoCodeApi.ts';
import { discountLabel, formValuesOf, usesLabel } from './promoFormat.ts';

describe('promo code cards and form', () => {
  it('shows a percentage as a percent and a fixed amount in dollars with 2 decimals', () => {
    expect(discountLabel({ discountType: 'percentage', discountValue: '10.00' })).toBe('10%');
    expect(discountLabel({ discountType: 'percentage', discountValue: '12.50' })).toBe('12.5%');
    expect(discountLabel({ discountType: 'fixed_amount', discountValue: '5.5' })).toBe('$5.50');
  });

  it('shows uses as current/max or (unlimited)', () => {
    expect(usesLabel({ currentUses: 3, maxUses: 10 })).toBe('3/10');
    expect(usesLabel({ currentUses: 0, maxUses: null })).toBe('0 (unlimited)');
  });

  it('checks the form with the spec messages and sends the discount as a string, empty limits and dates as null', () => {
    const empty = formValuesOf(null);
    expect(empty).toMatchObject({ discountType: 'percentage', isActive: true });
    const refused = promoCodeFormSchema.safeParse({ ...empty, code: '', discountValue: '0', maxUses: '0', maxUsesPerPerson: '0' });
    expect(refused.success ? [] : refused.error.issues.map((i) => i.message).sort()).toEqual([
      'Code is required',
      'Discount value must be positive',
      'Max uses must be at least 1, or empty for unlimited',
      'Uses per person must be at least 1, or empty for no limit',
    ]);
    const long = promoCodeFormSchema.safeParse({ ...empty, code: 'X'.repeat(51), discountValue: '10' });
    expect(long.success ? null : long.error.issues[0]?.message).toBe('Code must be at most 50 characters');
    const body = toPromoCodeBody(promoCodeFormSchema.parse({ ...empty, code: ' spring ', discountValue: '15' }));
    expect(body).toEqual({
      code: 'SPRING',
      description: null,
      discountType: 'percentage',
      discountValue: '15',
      maxUses: null,
      maxUsesPerPerson: null,
      validFrom: null,
      validUntil: null,
      isActive: true,
    });
  });
});
