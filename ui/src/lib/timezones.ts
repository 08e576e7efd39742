import { selectableTimezones } from '@shared/accounts/accountForms.ts';

export { type SelectableTimezone, selectableTimezones } from '@shared/accounts/accountForms.ts';

/** The label of a selectable zone, or the IANA id itself for any other zone. */
export function timezoneLabel(timezone: string): string {
  return selectableTimezones.find((z) => z.value === timezone)?.label ?? timezone;
}
