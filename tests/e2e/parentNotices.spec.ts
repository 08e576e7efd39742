import { expect, type Page, test } from '@playwright/test';
import ICAL from 'ical.js';
import { sessionTimeIn, shortTimeIn } from '../../src/domain/sessions/sessionNotices.ts';
import { seriousViolations } from './browser.ts';
import { chooseDay } from './datePicker.ts';
import { demoAccount } from './demoAccounts.ts';
import { signIn } from './helpers.ts';
import { browserZone, buyCalculusWithMaya, dayWithTwoSlots, gridLabel, newYorkStart } from './studentBooking.ts';
import { MAYA, throughTerms, tutorSignIn } from './tutorCalendar.ts';

/**
 * Everyone is told (docs/sessions-calendar.md): a parent books a session for their student, subscribes
 * to their calendar feed, the tutor moves the session; the parent's mailbox holds the "moved" notice
 * with a calendar file for the new time, and the feed lists the session at its new time only.
 */

// Not a subject another browser test buys for the demo parent's Sam (Calculus, Advanced Functions).
const SUBJECT = 'Data Management (Grade 11-12)';

const timeIn = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true }).format(new Date(iso));

/** The calendar file's one event for the session: its start (UTC ISO), sequence and method. */
function eventsOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    method: calendar.getFirstPropertyValue('method')?.toString() ?? null,
    events: calendar.getAllSubcomponents('vevent').map((component) => {
      const event = new ICAL.Event(component);
      return {
        uid: event.uid,
        summary: event.summary,
        start: event.startDate.toJSDate().toISOString(),
        sequence: event.sequence,
      };
    }),
  };
}

/** The parent's private feed link from the dashboard's Calendar feed card (a new one, or reset). */
async function feedLink(page: Page): Promise<string> {
  const card = page.getByTestId('calendar-feed');
  const get = card.getByRole('button', { name: 'Get calendar link' });
  const reset = card.getByRole('button', { name: 'Reset link' });
  await expect(get.or(reset)).toBeVisible();
  if (await get.isVisible()) await get.click();
  else {
    await reset.click();
    await page.getByRole('alertdialog', { name: 'Reset your calendar link?' }).getByRole('button', { name: 'Reset link' }).click();
  }
  const link = card.getByLabel('Your calendar feed link');
  await expect(link).toHaveValue(/\/calendar\/[^/]+\.ics$/);
  return link.inputValue();
}

test('a parent books, the tutor moves the session; the parent’s mailbox and calendar feed show the new time', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const parent = demoAccount('parent');
  await signIn(page, parent.username, parent.password);
  await expect(page).toHaveURL(/\/parent$/);
  const me = (await (await page.request.get('/api/user')).json()) as { id: string; email: string };
  const { students } = (await (await page.request.get('/api/parent/students')).json()) as { students: { id: string; firstName: string }[] };
  const sam = students.find((s) => s.firstName === 'Sam');
  if (!sam) throw new Error('the demo parent has no student Sam');
  const zone = await browserZone(page);
  const who = await buyCalculusWithMaya(page.request, request, { userId: me.id, zone, studentId: sam.id }, true, SUBJECT);
  const { day, first, second } = await dayWithTwoSlots(page.request, who.tutor.id, 6);
  const booked = newYorkStart(day, first);
  const moved = newYorkStart(day, second);

  // The parent books from /parent, as a family does.
  await page.goto('/parent');
  const course = page.getByTestId('parent-student').filter({ hasText: 'Sam' }).getByTestId('parent-course').filter({ hasText: SUBJECT });
  await course.getByRole('button', { name: `Book a session: ${SUBJECT}` }).click();
  await page.getByRole('dialog', { name: 'Confirm Tutor Selection' }).getByRole('button', { name: 'Select This Tutor' }).click();
  const schedule = page.getByRole('dialog', { name: 'Schedule Your Session' });
  await chooseDay(schedule.getByTestId('booking-calendar'), day);
  await schedule.getByRole('button', { name: gridLabel(day, first), exact: true }).click();
  await schedule.getByRole('button', { name: 'Book Session' }).click();
  await expect(page.getByText('Session Booked', { exact: true })).toBeVisible();
  const feed = await feedLink(page);

  // The tutor, in her own browser and zone, moves it to the other free hour of that day.
  const tutorContext = await browser.newContext({ timezoneId: MAYA.zone });
  const tutorPage = await tutorContext.newPage();
  await tutorSignIn(tutorPage, MAYA);
  await tutorPage.waitForURL((url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/dev'), { timeout: 20_000 });
  await tutorPage.goto('/tutor');
  await throughTerms(tutorPage, tutorPage.getByRole('heading', { name: /^Upcoming Sessions \(\d+\)$/ }));
  const card = tutorPage.getByRole('listitem', { name: `${SUBJECT} with Sam Student` });
  await expect(card.getByTestId('session-time')).toContainText(timeIn(booked, MAYA.zone));
  await card.getByRole('button', { name: 'Reschedule' }).click();
  const dialog = tutorPage.getByRole('dialog', { name: 'Reschedule Session' });
  await chooseDay(dialog.getByTestId('reschedule-calendar'), new Date(moved).toLocaleDateString('en-CA', { timeZone: MAYA.zone }));
  await dialog
    .getByRole('group', { name: 'Available start times' })
    .getByRole('button', { name: timeIn(moved, MAYA.zone), exact: true })
    .click();
  await dialog.getByRole('button', { name: 'Confirm Reschedule' }).click();
  await expect(tutorPage.getByText('Session Rescheduled', { exact: true })).toBeVisible();
  await tutorContext.close();

  // The parent's mailbox: one "moved" notice in the parent's zone, its calendar file a REQUEST for the new time.
  const subject = `Session moved: ${SUBJECT}, now ${shortTimeIn(moved, zone)}`;
  await page.goto('/dev/mailbox');
  const row = page.getByRole('row').filter({ hasText: me.email }).filter({ hasText: subject });
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return row.count();
      },
      { timeout: 30_000, message: 'the moved notice reaches the parent' },
    )
    .toBe(1);
  await expect(row).toContainText(`Was: ${sessionTimeIn(booked, zone)}`);
  const file = row.getByRole('listitem').filter({ hasText: 'text/calendar' });
  await expect(file).toContainText('REQUEST');
  await file.locator('summary').click();
  const invite = eventsOf(await file.locator('pre').innerText());
  expect(invite.method).toBe('REQUEST');
  expect(invite.events).toHaveLength(1);
  const [event] = invite.events;
  expect(event?.start).toBe(new Date(moved).toISOString());
  expect(event?.sequence).toBeGreaterThanOrEqual(1);
  expect(await seriousViolations(page, 'dev mailbox with a calendar file')).toEqual([]);

  // The feed, read without a cookie as a calendar app does: the same session (one UID), at its new time only.
  const anonymous = await browser.newContext();
  const answer = await anonymous.request.get(new URL(feed).pathname);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('text/calendar');
  const listed = eventsOf(await answer.text()).events.filter((e) => e.uid === event?.uid);
  expect(listed).toEqual([expect.objectContaining({ start: new Date(moved).toISOString(), sequence: event?.sequence })]);
  await anonymous.close();
});
