/** Account rules chosen where the spec is silent (docs/accounts.md); form rules live in accountForms.ts. */
export const VERIFICATION_CODE_TTL_MINUTES = 60;
export const RESET_CODE_TTL_MINUTES = 15;
export const MAX_CODE_ATTEMPTS = 5;
export const CODE_RESEND_INTERVAL_SECONDS = 60;
export const DEFAULT_TIMEZONE = 'America/New_York';

export const addMinutes = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000);
