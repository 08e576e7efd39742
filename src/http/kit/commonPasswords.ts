import { dictionary } from '@zxcvbn-ts/language-common';
import type { z } from 'zod';

/**
 * The most common passwords, from zxcvbn-ts's maintained list (ranked by frequency in public
 * breach corpora; lower-case). The top 10,000 are refused: an attacker's first guesses.
 */
const COMMON_PASSWORD_COUNT = 10_000;
const common = new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORD_COUNT));

export const COMMON_PASSWORD = 'This password is too common. Please choose another.';

/** Case does not make a common password uncommon: `Password1` is `password1`. */
export const isCommonPassword = (password: string): boolean => common.has(password.toLowerCase());

/**
 * A refinement for an object schema whose `field` holds a new password:
 * `schema.superRefine(refuseCommonPassword('password'))`. The domain's own rules (length, match)
 * stay in its schema; this adds the list check, which needs a package the domain may not import.
 */
export function refuseCommonPassword(field: string) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const password = value[field];
    if (typeof password === 'string' && isCommonPassword(password)) {
      ctx.addIssue({ code: 'custom', message: COMMON_PASSWORD, path: [field] });
    }
  };
}
