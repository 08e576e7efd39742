/** The 13 selectable time zones of spec part 1 §9, as IANA ids. */
export const selectableTimezones = [
  { value: 'America/New_York', label: 'Eastern' },
  { value: 'America/Chicago', label: 'Central' },
  { value: 'America/Denver', label: 'Mountain' },
  { value: 'America/Los_Angeles', label: 'Pacific' },
  { value: 'America/Phoenix', label: 'Arizona' },
  { value: 'America/Anchorage', label: 'Alaska' },
  { value: 'Pacific/Honolulu', label: 'Hawaii' },
  { value: 'America/Toronto', label: 'Toronto' },
  { value: 'America/Vancouver', label: 'Vancouver' },
  { value: 'Europe/London', label: 'London' },
  { value: 'Europe/Paris', label: 'Paris' },
  { value: 'Asia/Tokyo', label: 'Tokyo' },
  { value: 'Australia/Sydney', label: 'Sydney' },
] as const;
export type SelectableTimezone = (typeof selectableTimezones)[number]['value'];

/** The label of a selectable zone, or the IANA id itself for any other zone. */
export function timezoneLabel(timezone: string): string {
  return selectableTimezones.find((z) => z.value === timezone)?.label ?? timezone;
}
