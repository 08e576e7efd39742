import { expect, type Locator } from '@playwright/test';

/**
 * Chooses `day` (yyyy-MM-dd) in the calendar date picker (DateCalendar) inside `scope`, going
 * forward month by month with its "next month" button, as a person with a mouse would.
 */
export async function chooseDay(scope: Locator, day: string): Promise<void> {
  const cell = scope.locator(`[data-day="${day}"]:not([data-outside])`);
  for (let step = 0; step < 3 && !(await cell.getByRole('button').isVisible()); step++) {
    await scope.getByRole('button', { name: 'Go to the Next Month' }).click();
  }
  await cell.getByRole('button').click();
  await expect(cell).toHaveAttribute('data-selected', 'true');
}

/** The calendar's "today" (yyyy-MM-dd): its first choosable day. */
export async function calendarToday(scope: Locator): Promise<string | null> {
  return scope.locator('[data-today]').getAttribute('data-day');
}
