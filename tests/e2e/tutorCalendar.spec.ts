import { type APIRequestContext, expect, test } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { horizontalOverflow, seriousViolations } from './browser.ts';
import { chooseDay } from './datePicker.ts';
import { layerSettled } from './layerSettled.ts';
import { gridLabel, studentWithMaya } from './studentBooking.ts';
import { dayLabel, MAYA, showWeekOf, throughTerms, tutorSignIn } from './tutorCalendar.ts';

/**
 * The tutor's calendar in the sandbox (issue 21 items 2 and 5; spec part 2 §1, §2): Maya adds a
 * weekly "Topmark Hours" series on Sunday mornings, where she has no hours, in the dashboard's
 * week view; a student books one of its hours in the booking dialog; Maya cancels the next
 * occurrence and that Sunday offers nothing; the booked session shows in her week, read-only;
 * deleting the series leaves the session where it is.
 */

// The browser's zone becomes the signed-in user's zone (spec part 1 §4): Maya's own.
test.use({ timezoneId: MAYA.zone });

const SHOTS = '.tmp/tutor-calendar-shots';
const hoursName = (day: Temporal.PlainDate) => `Topmark Hours, bookable, ${dayLabel(day)}, 7:00 AM – 8:00 AM, repeats`;

/** The booking grid's New York start times on `day` (none while the tutor has nothing bookable). */
async function gridTimes(api: APIRequestContext, tutorId: string, day: Temporal.PlainDate): Promise<string[]> {
  const res = await api.get(`/api/tutors/${tutorId}/available-slots?date=${day}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { time: string }[]).map((s) => s.time);
}

test('a tutor adds weekly Topmark Hours in the week view, a student books one, and a cancelled occurrence offers nothing', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  // Sundays at least three days ahead: Maya has no weekly hours on Sundays, so 07:00 is free.
  let first = Temporal.Now.plainDateISO(MAYA.zone).add({ days: 3 });
  while (first.dayOfWeek !== 7) first = first.add({ days: 1 });
  const second = first.add({ weeks: 1 });
  const third = first.add({ weeks: 2 });

  // The student first, in a browser of their own: a Calculus course with Maya.
  const context = await browser.newContext({ timezoneId: MAYA.zone });
  const student = await context.newPage();
  const who = await studentWithMaya(student, request, true, { firstName: 'Sunny', lastName: 'Sunday', emailPrefix: 'sundaystudent' });
  expect(await gridTimes(student.request, who.tutor.id, first)).not.toContain('07:00');

  // Maya adds the series in her week view.
  await tutorSignIn(page, MAYA);
  await page.goto('/tutor');
  const week = page.getByTestId('calendar-week');
  await throughTerms(page, week);
  await expect(page.getByRole('heading', { name: 'Your calendar' })).toBeVisible();
  await page.getByRole('button', { name: 'Add event', exact: true }).click();
  const add = page.getByRole('dialog', { name: 'Add an event' });
  await add.getByRole('button', { name: 'Topmark Hours' }).click();
  await expect(add.getByLabel('Title')).toHaveValue('Topmark Hours');
  await add.getByLabel('Date', { exact: true }).fill(first.toString());
  await add.getByLabel('Start', { exact: true }).fill('07:00');
  await add.getByLabel('End', { exact: true }).fill('08:00');
  await add.getByLabel('Repeat', { exact: true }).selectOption('weekly');
  // The series repeats on the chosen date's weekday until other days are picked.
  await expect(add.getByLabel('Sunday')).toBeChecked();
  await expect(add.getByLabel('Monday')).not.toBeChecked();
  await add.getByLabel('After').check();
  await add.getByLabel('Number of occurrences').fill('3');
  // Topmark Hours are bookable time: no free/busy choice.
  await expect(add.getByText('Topmark Hours are bookable time')).toBeVisible();
  await expect(add.getByRole('radio', { name: /^Busy/ })).toHaveCount(0);
  expect(await seriousViolations(page, 'add event dialog')).toEqual([]);
  await add.screenshot({ path: `${SHOTS}/add-event.png` });
  await add.getByRole('button', { name: 'Add event' }).click();
  await expect(page.getByText('Event added', { exact: true })).toBeVisible();
  await expect(add).toHaveCount(0);

  await showWeekOf(page, first, MAYA.zone);
  await expect(week.getByRole('button', { name: hoursName(first) })).toBeVisible();
  // Her weekday hours (from the weekly-hours editor) are Topmark Hours too.
  await expect(week.getByRole('button', { name: /^Topmark Hours, bookable, Monday, .*4:00 PM – 8:00 PM, repeats$/ })).toBeVisible();
  expect(await seriousViolations(page, 'week view')).toEqual([]);
  await week.screenshot({ path: `${SHOTS}/week.png` });
  expect(await gridTimes(student.request, who.tutor.id, first)).toContain('07:00');
  expect(await gridTimes(student.request, who.tutor.id, second)).toContain('07:00');

  // The student books the first Sunday's hour in the booking dialog.
  await student.goto('/student');
  await student.getByRole('button', { name: `Book a session: ${who.subject.name}` }).click();
  await student.getByRole('dialog', { name: 'Confirm Tutor Selection' }).getByRole('button', { name: 'Select This Tutor' }).click();
  const schedule = student.getByRole('dialog', { name: 'Schedule Your Session' });
  await chooseDay(schedule.getByTestId('booking-calendar'), first.toString());
  const slot = schedule.getByRole('button', { name: gridLabel(first.toString(), '07:00'), exact: true });
  await slot.click();
  await expect(slot).toHaveAttribute('aria-pressed', 'true');
  await schedule.getByRole('button', { name: 'Book Session' }).click();
  await expect(student.getByText('Session Booked', { exact: true })).toBeVisible();
  await expect(schedule).toHaveCount(0);
  expect(await gridTimes(student.request, who.tutor.id, first)).not.toContain('07:00');

  // Maya cancels the next Sunday's occurrence only.
  await page.getByRole('button', { name: 'Next week' }).click();
  await week.getByRole('button', { name: hoursName(second) }).click();
  const edit = page.getByRole('dialog', { name: 'Edit event' });
  await expect(edit.getByLabel('This occurrence only')).toBeChecked();
  expect(await seriousViolations(page, 'edit event dialog')).toEqual([]);
  await edit.screenshot({ path: `${SHOTS}/edit-occurrence.png` });
  await edit.getByRole('button', { name: 'Delete this occurrence' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this occurrence?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Event deleted', { exact: true })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(week.getByRole('button', { name: hoursName(second) })).toHaveCount(0);
  expect(await gridTimes(student.request, who.tutor.id, second)).toEqual([]);
  expect(await gridTimes(student.request, who.tutor.id, third)).toContain('07:00');

  // That Sunday offers nothing in the booking dialog.
  await student.getByRole('button', { name: `Book a session: ${who.subject.name}` }).click();
  await student.getByRole('dialog', { name: 'Confirm Tutor Selection' }).getByRole('button', { name: 'Select This Tutor' }).click();
  await chooseDay(schedule.getByTestId('booking-calendar'), second.toString());
  await expect(schedule.getByText('No available times for this date')).toBeVisible();
  await context.close();

  // The booked session is in Maya's week once the calendar saga wrote it: read-only.
  const session = week.getByRole('button', { name: new RegExp(`, booked session, ${dayLabel(first)}, 7:00 AM – 8:00 AM, read-only$`) });
  await expect
    .poll(
      async () => {
        await page.reload();
        await throughTerms(page, week);
        await showWeekOf(page, first, MAYA.zone);
        await expect(week.getByRole('button', { name: hoursName(first) })).toBeVisible();
        return session.count();
      },
      { timeout: 45_000, intervals: [1_000] },
    )
    .toBe(1);
  await week.screenshot({ path: `${SHOTS}/week-with-session.png` });
  await session.click();
  const details = page.getByRole('dialog', { name: 'Booked session' });
  await expect(details).toContainText('use Reschedule or Cancel');
  await expect(details.getByRole('button', { name: /Delete/ })).toHaveCount(0);
  await layerSettled(page, details);
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);

  // Deleting the whole series: no Sunday hours any more, the booked session stays.
  await week.getByRole('button', { name: hoursName(first) }).click();
  await edit.getByRole('button', { name: 'Delete series' }).click();
  await page.getByRole('alertdialog', { name: 'Delete the whole series?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Series deleted', { exact: true })).toBeVisible();
  await expect(week.getByRole('button', { name: hoursName(first) })).toHaveCount(0);
  await expect(session).toHaveCount(1);
  expect(await gridTimes(page.request, who.tutor.id, third)).toEqual([]);

  // A phone: the week scrolls inside its card, the page does not.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.getByRole('heading', { name: 'Your calendar' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/week-375.png` });
});
