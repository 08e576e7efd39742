import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { seriousViolations } from './browser.ts';
import { layerSettled } from './layerSettled.ts';
import { studentWithMaya } from './studentBooking.ts';

/**
 * Keyboard users keep their place (issue 24 item 5, 6): every dialog gives focus back to the
 * button that opened it when it closes by Escape, its Cancel or close button, or its confirming
 * action, and to the list's heading when that button is gone; the reschedule calendar and its
 * start times work with the keyboard alone; the sign-in forms tab Username → Password → Sign In;
 * axe finds nothing serious on those pages.
 */

const timeIn = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true }).format(new Date(iso));

/** The focused element, described for assertions (the tests compile without the DOM's types). */
const focused = (page: Page) =>
  page.evaluate(
    "(() => { const e = document.activeElement; return e === null || e === document.body ? 'body' : e.tagName.toLowerCase() + ':' + (e.getAttribute('aria-label') ?? e.textContent ?? '').trim(); })()",
  ) as Promise<string>;

const focusInDayGrid = (page: Page) => page.evaluate("!!document.activeElement?.closest('[data-day]')") as Promise<boolean>;

/** Presses Tab until `done` holds (at most `max` times). */
async function tabUntil(page: Page, done: () => Promise<boolean>, max = 12) {
  for (let i = 0; i < max; i++) {
    if (await done()) return;
    await page.keyboard.press('Tab');
  }
  expect(await done(), 'Tab never reached the expected control').toBe(true);
}

/** Maya's free starts on the first day from `fromDays` ahead (in `zone`) that has any. */
async function freeDay(api: APIRequestContext, tutorId: string, fromDays: number, zone: string) {
  for (let days = fromDays; days <= fromDays + 7; days++) {
    const day = Temporal.Now.plainDateISO(zone).add({ days }).toString();
    const res = await api.get(`/api/tutors/${tutorId}/availability/${day}?timezone=${encodeURIComponent(zone)}`);
    expect(res.status(), await res.text()).toBe(200);
    const { slots } = (await res.json()) as { slots: { start: string }[] };
    if (slots.length > 0) return { day, days, starts: slots.map((s) => s.start) };
  }
  throw new Error(`Maya has no free hour from ${fromDays} days ahead`);
}

/** Opens a dialog with the keyboard from `opener`, closes it with `close`, and checks focus is back on the opener. */
async function opensAndReturns(page: Page, opener: Locator, dialog: Locator, close: () => Promise<void>) {
  await opener.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await layerSettled(page, dialog);
  await close();
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

test('the sign-in forms tab from the username to the password to Sign In, and axe finds nothing serious', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or Email').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Forgot password?' })).toBeFocused();
  expect(await seriousViolations(page, '/login')).toEqual([]);

  await page.goto('/admin-login');
  await page.getByLabel('Username').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  // The show-password switch belongs to the field; Sign In comes right after it.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeFocused();
  expect(await seriousViolations(page, '/admin-login')).toEqual([]);

  // The tutors' sign-in is Google's only: its button is the first control of the card.
  await page.goto('/tutor-login');
  expect(await seriousViolations(page, '/tutor-login')).toEqual([]);
});

test('a family moves a session with the keyboard alone, and every dashboard dialog gives focus back to its opener', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const who = await studentWithMaya(page, request, true, { firstName: 'Kai', lastName: 'Keyboard', emailPrefix: 'focusreturn' });
  // Weeks ahead and late in the day, clear of the other specs' bookings with Maya (days 1-16, their first free hours).
  const booked = await freeDay(page.request, who.tutor.id, 21, who.zone);
  const start = booked.starts.at(-1) as string;
  const created = await page.request.post('/api/book-session', {
    data: { tutorId: who.tutor.id, studentCourseId: who.courseId, date: start, duration: 60, notes: 'Focus return' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const target = await freeDay(page.request, who.tutor.id, booked.days + 2, who.zone);
  const moved = target.starts.at(-2) ?? (target.starts.at(-1) as string);

  await page.goto('/student');
  const upcoming = page.getByRole('region', { name: 'Upcoming Sessions' });
  const row = upcoming.getByRole('listitem').filter({ hasText: who.subject.name }).filter({ hasText: '60 min' });
  await expect(row).toContainText(timeIn(start, who.zone));

  // Help (a dialog opened by an ordinary button): Escape, Cancel and the close button.
  const help = page.getByRole('button', { name: 'Help', exact: true });
  const contact = page.getByRole('dialog', { name: 'Contact support' });
  await opensAndReturns(page, help, contact, () => page.keyboard.press('Escape'));
  await opensAndReturns(page, help, contact, () => contact.getByRole('button', { name: 'Cancel', exact: true }).click());
  await opensAndReturns(page, help, contact, () => contact.getByRole('button', { name: 'Close', exact: true }).click());

  // Reschedule: Escape and Cancel.
  const reschedule = row.getByRole('button', { name: /^Reschedule / });
  const move = page.getByRole('dialog', { name: 'Reschedule Session' });
  await opensAndReturns(page, reschedule, move, () => page.keyboard.press('Escape'));
  await opensAndReturns(page, reschedule, move, () => move.getByRole('button', { name: 'Cancel', exact: true }).click());

  // Reschedule with the keyboard: Tab into the calendar (today), arrows to the day, Enter; Tab to the time, Space; Tab to Confirm, Enter.
  await reschedule.focus();
  await page.keyboard.press('Enter');
  await expect(move).toBeVisible();
  const calendar = move.getByTestId('reschedule-calendar');
  const today = Temporal.Now.plainDateISO(who.zone);
  await expect(calendar.locator('[data-today]')).toHaveAttribute('data-day', today.toString());
  // Yesterday cannot be chosen: the calendar starts at today.
  await expect(calendar.getByRole('button', { name: 'Go to the Previous Month' })).toBeDisabled();
  await tabUntil(page, () => focusInDayGrid(page));
  await expect(calendar.locator('[data-today] button')).toBeFocused();
  expect(await seriousViolations(page, 'reschedule dialog with its calendar')).toEqual([]);
  const days = today.until(Temporal.PlainDate.from(target.day)).days;
  for (let i = 0; i < Math.floor(days / 7); i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < days % 7; i++) await page.keyboard.press('ArrowRight');
  await expect(calendar.locator(`[data-day="${target.day}"] button`)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(calendar.locator(`[data-day="${target.day}"]`)).toHaveAttribute('data-selected', 'true');
  await expect(calendar).toContainText(
    `Chosen: ${new Intl.DateTimeFormat('en-US', { dateStyle: 'full' }).format(new Date(`${target.day}T12:00:00`))}`,
  );
  const slots = move.getByRole('group', { name: 'Available start times' });
  const slot = slots.getByRole('button', { name: timeIn(moved, who.zone), exact: true });
  await expect(slot).toBeVisible();
  await tabUntil(page, async () => (await focused(page)) === `button:${timeIn(moved, who.zone)}`, 30);
  await page.keyboard.press('Space');
  await expect(slot).toHaveAttribute('aria-pressed', 'true');
  await move.screenshot({ path: '.tmp/focus-shots/reschedule-calendar.png' });
  const confirm = move.getByRole('button', { name: 'Confirm Reschedule' });
  await tabUntil(page, async () => (await focused(page)) === 'button:Confirm Reschedule', 30);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Session Rescheduled', { exact: true })).toBeVisible();
  await expect(move).toHaveCount(0);
  await expect(confirm).toHaveCount(0);
  await expect(row).toContainText(timeIn(moved, who.zone));
  await expect(reschedule).toBeFocused();

  // Cancel the session (an alert dialog): Escape and Keep Session give focus back; once cancelled, its row is gone and the list's heading has it.
  const cancel = row.getByRole('button', { name: /^Cancel / });
  const confirmCancel = page.getByRole('alertdialog', { name: 'Cancel this session?' });
  await opensAndReturns(page, cancel, confirmCancel, () => page.keyboard.press('Escape'));
  await opensAndReturns(page, cancel, confirmCancel, () => confirmCancel.getByRole('button', { name: 'Keep Session' }).click());
  await cancel.focus();
  await page.keyboard.press('Enter');
  await confirmCancel.getByRole('button', { name: 'Cancel Session' }).click();
  await expect(page.getByText('Session Cancelled', { exact: true })).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect.poll(() => focused(page)).toMatch(/^h\d:/);
  expect(await seriousViolations(page, 'student dashboard after the dialogs')).toEqual([]);
});

test('a console ConfirmAction gives focus back to its button on Escape, Cancel and confirming', async ({ page }) => {
  await page.goto('/admin-login');
  await page.getByLabel('Username').fill('e2e.admin');
  await page.getByLabel('Password', { exact: true }).fill('admin-pass-1');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('navigation', { name: 'System' }).getByRole('link', { name: 'Projections' }).click();
  await expect(page).toHaveURL(/tab=projections/);

  const row = page.getByTestId('projection-row').filter({ has: page.getByText('notices', { exact: true }) });
  const rebuild = row.getByRole('button', { name: /^Rebuild/ });
  await expect(rebuild).toBeEnabled();
  const ask = page.getByRole('alertdialog', { name: /^Rebuild notices/ });
  await opensAndReturns(page, rebuild, ask, () => page.keyboard.press('Escape'));
  await opensAndReturns(page, rebuild, ask, () => ask.getByRole('button', { name: 'Cancel', exact: true }).click());
  expect(await seriousViolations(page, 'console projections')).toEqual([]);

  // Confirmed: the button reads as busy but keeps focus while the rebuild starts; focus never falls to the page.
  await rebuild.focus();
  await page.keyboard.press('Enter');
  await ask.getByRole('button', { name: 'Rebuild', exact: true }).click();
  await expect(ask).toHaveCount(0);
  await expect.poll(() => focused(page)).not.toBe('body');
  expect(await focused(page)).toMatch(/^button:Rebuild|^h\d:/);
  await expect(row.getByTestId('rebuild-progress')).toContainText('Rebuilt', { timeout: 60_000 });
  expect(await focused(page)).not.toBe('body');
});
