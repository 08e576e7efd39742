/** Marketing pages show whole dollars; per-session prices to 2 decimals (spec part 1 §9). */
export function wholeDollars(amount: number): string {
  return `$${Math.round(amount).toLocaleString('en-US')}`;
}

export function dollarsAndCents(amount: number): string {
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
