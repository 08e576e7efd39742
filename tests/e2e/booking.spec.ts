import { expect, test } from '@playwright/test';
import { horizontalOverflow, seriousViolations } from './browser.ts';
import { chooseDay } from './datePicker.ts';
import { demoAccount } from './demoAccounts.ts';
import { signIn, signOut, unique } from './helpers.ts';
import { browserZone, buyCalculusWithMaya, dayWithTwoSlots, gridLabel, newYorkStart, studentWithMaya } from './studentBooking.ts';

/**
 * The student's booking (spec part 2 §2, §4, §5, §8, §9): a student with a course and a chosen
 * tutor (a demo tutor the e2e server seeds with weekly hours) books from the dashboard — the
 * "Missing Information" toast without a slot first — sees the session under Upcoming with one
 * session fewer remaining and, once the calendar saga ran, its Join Google Meet link; reschedules
 * it; cancels it more than 12 hours ahead and gets the credit back. Also the first-session step's
 * "Book First Session Now".
 */

const timeIn = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true }).format(new Date(iso));
const dayIn = (iso: string, zone: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone: zone });

test('a student books from the dashboard, sees the Meet link and one session fewer, reschedules, and cancels with the credit back', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const who = await studentWithMaya(page, request, true);
  const { day, first, second } = await dayWithTwoSlots(page.request, who.tutor.id, 3);

  await page.goto('/student');
  const remaining = page.getByTestId('sessions-remaining').first();
  await expect(remaining).toHaveText('4 left');
  await page.getByRole('button', { name: `Book a session: ${who.subject.name}` }).click();

  // Step 1: the tutor.
  const dialog = page.getByRole('dialog', { name: 'Confirm Tutor Selection' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('booking-tutor')).toContainText(who.tutor.name);
  expect(await seriousViolations(page, 'booking step 1')).toEqual([]);
  await dialog.getByRole('button', { name: 'Select This Tutor' }).click();

  // Step 2: nothing chosen yet; Book Session reads as disabled and says what is missing.
  const schedule = page.getByRole('dialog', { name: 'Schedule Your Session' });
  await expect(schedule.getByText('Please select a date first')).toBeVisible();
  const bookButton = schedule.getByRole('button', { name: 'Book Session' });
  await expect(bookButton).toHaveAttribute('aria-disabled', 'true');
  await bookButton.press('Enter');
  await expect(page.getByText('Missing Information', { exact: true })).toBeVisible();
  await expect(page.getByText('Please select a date and time slot', { exact: true })).toBeVisible();
  // The error toast itself must be readable (its description once failed AA contrast on red).
  expect(await seriousViolations(page, 'booking with an error toast')).toEqual([]);
  await expect(page.getByText('Missing Information', { exact: true })).toBeHidden({ timeout: 10_000 });

  const calendar = schedule.getByTestId('booking-calendar');
  const today = new Date().toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
  await expect(calendar.locator('[data-today]')).toHaveAttribute('data-day', today);
  await chooseDay(calendar, day);
  const firstLabel = gridLabel(day, first);
  expect(firstLabel).toMatch(/^\d{1,2}:\d{2} (AM|PM) E[SD]T$/);
  const firstSlot = schedule.getByRole('button', { name: firstLabel, exact: true });
  await expect(firstSlot).toBeVisible();
  // A slot chosen but the booking not sent yet: still "Missing Information"-free, the button now reads as enabled.
  await firstSlot.click();
  await expect(firstSlot).toHaveAttribute('aria-pressed', 'true');
  await expect(bookButton).not.toHaveAttribute('aria-disabled', 'true');
  await schedule.getByLabel('Session Notes (Optional)').fill('Limits and derivatives');
  expect(await seriousViolations(page, 'booking step 2')).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.screenshot({ path: '.tmp/booking-shots/schedule-375.png' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await bookButton.click();
  await expect(page.getByText('Session Booked', { exact: true })).toBeVisible();
  await expect(schedule).toHaveCount(0);

  // Upcoming, one session fewer.
  const start = newYorkStart(day, first);
  const upcoming = page.getByRole('region', { name: 'Upcoming Sessions' });
  // A session's row (the list of bookable courses above it names the subject too).
  const row = upcoming.getByRole('listitem').filter({ hasText: who.subject.name }).filter({ hasText: '60 min' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(timeIn(start, who.zone));
  await expect(row).toContainText('Limits and derivatives');
  await expect(remaining).toHaveText('3 left');
  // A booked hour is still to come, not completed: its credit is taken, the session pending.
  await expect(page.getByTestId('completed-count')).toHaveText('0');
  await expect(page.getByTestId('pending-count')).toHaveText('4');

  // The calendar saga gives the session its Meet link shortly after.
  await expect
    .poll(
      async () => {
        await page.reload();
        // Count once the reloaded list shows the session: right after a reload it may still be loading.
        const list = page.getByRole('region', { name: 'Upcoming Sessions' });
        await list.getByText('Limits and derivatives').first().waitFor({ timeout: 15_000 });
        return list.getByRole('link', { name: /Join Google Meet/ }).count();
      },
      { timeout: 45_000, intervals: [1_000] },
    )
    .toBe(1);
  await expect(row.getByRole('link', { name: /Join Google Meet/ })).toHaveAttribute('href', /^https:\/\//);
  expect(await seriousViolations(page, 'dashboard with a session')).toEqual([]);
  await page.screenshot({ path: '.tmp/booking-shots/dashboard.png', fullPage: true });

  // Reschedule to the day's other free hour (times in the student's zone).
  const other = newYorkStart(day, second);
  await row.getByRole('button', { name: /^Reschedule / }).click();
  const move = page.getByRole('dialog', { name: 'Reschedule Session' });
  await expect(move.getByRole('button', { name: 'Confirm Reschedule' })).toBeDisabled();
  await chooseDay(move.getByTestId('reschedule-calendar'), dayIn(other, who.zone));
  const slots = move.getByRole('group', { name: 'Available start times' });
  // The session's own hour does not block it.
  await expect(slots.getByRole('button', { name: timeIn(start, who.zone), exact: true })).toBeVisible();
  await slots.getByRole('button', { name: timeIn(other, who.zone), exact: true }).click();
  expect(await seriousViolations(page, 'reschedule dialog')).toEqual([]);
  await move.getByRole('button', { name: 'Confirm Reschedule' }).click();
  await expect(page.getByText('Session Rescheduled', { exact: true })).toBeVisible();
  await expect(move).toHaveCount(0);
  await expect(row).toContainText(timeIn(other, who.zone));
  await expect(remaining).toHaveText('3 left');

  // Cancel more than 12 hours ahead: the dialog says the credit comes back, and it does.
  await row.getByRole('button', { name: /^Cancel / }).click();
  const cancel = page.getByRole('alertdialog', { name: 'Cancel this session?' });
  await expect(cancel.getByTestId('cancel-credit-rule')).toContainText('the session’s credit comes back');
  expect(await seriousViolations(page, 'cancel dialog')).toEqual([]);
  await cancel.getByRole('button', { name: 'Cancel Session' }).click();
  await expect(page.getByText('Session Cancelled', { exact: true })).toBeVisible();
  await expect(page.getByText('The session was cancelled and its credit is back in your course.', { exact: true })).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(remaining).toHaveText('4 left');

  // A phone: no sideways scroll.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.screenshot({ path: '.tmp/booking-shots/dashboard-375.png', fullPage: true });
});

test('Book First Session Now books with the chosen tutor, starts the course and welcomes the student', async ({ page, request }) => {
  test.setTimeout(90_000);
  const who = await studentWithMaya(page, request, false);
  const { day, first } = await dayWithTwoSlots(page.request, who.tutor.id, 4);
  const enrollment = {
    packageId: who.packageInfo.id,
    studentId: who.studentId,
    subjectId: who.subject.id,
    tutorId: who.tutor.id,
    subjectInfo: { name: who.subject.name },
    packageInfo: { name: who.packageInfo.name, sessionCount: who.packageInfo.sessionCount, totalPrice: who.packageInfo.totalPrice },
  };
  await page.evaluate(`localStorage.setItem('pendingEnrollment', ${JSON.stringify(JSON.stringify(enrollment))})`);
  await page.goto('/time-slot-selection');
  await expect(page.getByRole('heading', { name: 'Schedule Your First Session' })).toBeVisible();
  await page.getByRole('button', { name: 'Book First Session Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Tutor Selection' });
  await expect(dialog.getByTestId('booking-tutor')).toContainText(who.tutor.name);
  await dialog.getByRole('button', { name: 'Select This Tutor' }).click();
  const schedule = page.getByRole('dialog', { name: 'Schedule Your Session' });
  await chooseDay(schedule.getByTestId('booking-calendar'), day);
  await schedule.getByRole('button', { name: gridLabel(day, first), exact: true }).click();
  await schedule.getByRole('button', { name: 'Book Session' }).click();
  await expect(page.getByText('Welcome to Topmark!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/student$/);
  expect(await page.evaluate(`localStorage.getItem('pendingEnrollment')`)).toBeNull();
  const courses = (await (await page.request.get(`/api/student/${who.studentId}/courses`)).json()) as {
    status: string;
    sessionsRemaining: number;
  }[];
  expect(courses).toEqual([expect.objectContaining({ status: 'active', sessionsRemaining: 3 })]);
  // The booked session is upcoming on the dashboard, with the notes defaulted to the subject's.
  const row = page
    .getByRole('region', { name: 'Upcoming Sessions' })
    .getByRole('listitem')
    .filter({ hasText: who.subject.name })
    .filter({ hasText: '60 min' });
  await expect(row).toContainText(timeIn(newYorkStart(day, first), who.zone));
  await expect(row).toContainText(`${who.subject.name} tutoring session`);
  await expect(row.getByRole('button', { name: /^Cancel / })).toBeVisible();

  // A view-only login sees the session but no booking, rescheduling or cancelling; the server refuses them too.
  const username = `bo.view.${unique()}`;
  const created = await page.request.post('/api/student/secondary-login', {
    data: { studentId: who.studentId, secondaryUsername: username, password: 'view-pass-1' },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const sessions = (await (await page.request.get('/api/student/dashboard')).json()) as { sessions: { id: string }[] };
  const sessionId = sessions.sessions[0]?.id ?? '';
  await signOut(page);
  await signIn(page, username, 'view-pass-1');
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByTestId('view-only-badge')).toHaveText('View Only');
  await expect(row).toContainText(`${who.subject.name} tutoring session`);
  await expect(page.getByRole('button', { name: /^Book a session/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Reschedule / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Cancel / })).toHaveCount(0);
  expect((await page.request.post(`/api/sessions/${sessionId}/cancel`, { data: { reason: 'no' } })).status()).toBe(403);
});

test('a parent books and cancels a session for their student from /parent', async ({ page, request }) => {
  test.setTimeout(90_000);
  const parent = demoAccount('parent');
  await signIn(page, parent.username, parent.password);
  await expect(page).toHaveURL(/\/parent$/);
  const me = (await (await page.request.get('/api/user')).json()) as { id: string };
  const { students } = (await (await page.request.get('/api/parent/students')).json()) as { students: { id: string; firstName: string }[] };
  const sam = students.find((s) => s.firstName === 'Sam');
  if (!sam) throw new Error('the demo parent has no student Sam');
  // Not Calculus: the dashboards test buys that for the demo parent's Sam on the same server.
  const who = await buyCalculusWithMaya(
    page.request,
    request,
    { userId: me.id, zone: await browserZone(page), studentId: sam.id },
    true,
    'Advanced Functions',
  );
  const { day, first } = await dayWithTwoSlots(page.request, who.tutor.id, 5);

  await page.goto('/parent');
  const card = page.getByTestId('parent-student').filter({ hasText: 'Sam' });
  const course = card.getByTestId('parent-course').filter({ hasText: who.subject.name });
  await expect(course.getByTestId('course-remaining')).toHaveText('4');
  await course.getByRole('button', { name: `Book a session: ${who.subject.name}` }).click();
  await page.getByRole('dialog', { name: 'Confirm Tutor Selection' }).getByRole('button', { name: 'Select This Tutor' }).click();
  const schedule = page.getByRole('dialog', { name: 'Schedule Your Session' });
  await chooseDay(schedule.getByTestId('booking-calendar'), day);
  await schedule.getByRole('button', { name: gridLabel(day, first), exact: true }).click();
  await schedule.getByRole('button', { name: 'Book Session' }).click();
  await expect(page.getByText('Session Booked', { exact: true })).toBeVisible();
  await expect(course.getByTestId('course-remaining')).toHaveText('3');
  await expect(course.getByTestId('course-booked')).toHaveText('1');

  const upcoming = card.getByRole('region', { name: "Sam's upcoming sessions" });
  const row = upcoming.getByRole('listitem').filter({ hasText: who.subject.name });
  await expect(row).toContainText(timeIn(newYorkStart(day, first), who.zone));
  expect(await seriousViolations(page, 'parent dashboard with a session')).toEqual([]);
  await page.screenshot({ path: '.tmp/booking-shots/parent.png', fullPage: true });
  await row.getByRole('button', { name: /^Cancel / }).click();
  const cancel = page.getByRole('alertdialog', { name: 'Cancel this session?' });
  await expect(cancel.getByTestId('cancel-credit-rule')).toContainText('the session’s credit comes back');
  await cancel.getByRole('button', { name: 'Cancel Session' }).click();
  await expect(page.getByText('Session Cancelled', { exact: true })).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(course.getByTestId('course-remaining')).toHaveText('4');
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
});
