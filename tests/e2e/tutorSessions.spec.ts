import { type APIRequestContext, type Browser, expect, test } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { horizontalOverflow, seriousViolations } from './browser.ts';
import { chooseDay } from './datePicker.ts';
import { googleStudent, moveServerClock, unique } from './helpers.ts';
import { layerSettled } from './layerSettled.ts';
import { freeHours, studentWithMaya } from './studentBooking.ts';
import { dayLabel, MAYA, showWeekOf, throughTerms, tutorSignIn } from './tutorCalendar.ts';

/**
 * The tutor's sessions on the tutor dashboard (spec part 2 §2, §4, §5, §8, §9): a student books a
 * demo tutor over the HTTP API, as the booking dialog would; the tutor sees the session with its
 * Meet link once the calendar saga ran, the sync card says all synced, reschedules it and cannot
 * complete it before its start. A tutor without sessions sees the empty states.
 */

// The browser's zone becomes the signed-in user's zone (spec part 1 §4): Maya's own, so her times read as hers.
test.use({ timezoneId: 'America/Toronto' });

/** An API client signed in as the e2e admin (tests/e2e/serve.ts). */
async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/login', { data: { username: 'e2e.admin', password: 'admin-pass-1' } });
  expect(login.ok()).toBe(true);
  return request;
}

/**
 * A new Grade 11 student in their own browser context with an active Calculus course with Maya,
 * bought free with a 100% code (no card), and one session booked at Maya's first day with at least
 * two free hours. Answers the booked start and another free start of that day.
 */
async function studentBooksMaya(browser: Browser, request: APIRequestContext) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const who = await studentWithMaya(page, request, true, { firstName: 'Bea', lastName: 'Booker', emailPrefix: 'booker' });
  // Maya's first day (in her zone) from tomorrow with two free hours.
  const {
    day,
    starts: [start, other],
  } = await freeHours(page.request, who.tutor.id, { fromDays: 1, zone: MAYA.zone, count: 2 });
  const booked = await page.request.post('/api/book-session', {
    data: { tutorId: who.tutor.id, studentCourseId: who.courseId, date: start, duration: 60, notes: 'Limits and derivatives' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const session = (await booked.json()) as { id: string };
  await context.close();
  return {
    tutorId: who.tutor.id,
    sessionId: session.id,
    day,
    start: start as string,
    other: other as string,
    studentName: who.name,
    studentEmail: who.email,
  };
}

const timeIn = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true }).format(new Date(iso));

test('a tutor sees a booked session with its Meet link and all synced, reschedules it, and cannot complete it before its start', async ({
  page,
  browser,
  request,
}) => {
  const booking = await studentBooksMaya(browser, request);

  await tutorSignIn(page, MAYA);
  await page.waitForURL((url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/dev'), { timeout: 20_000 });
  // The calendar saga gives the session its event and Meet link (the sandbox calendar) shortly after booking.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/sessions/tutor/${booking.tutorId}`);
        const sessions = (await res.json()) as { id: string; meetingLink: string | null }[];
        return sessions.find((s) => s.id === booking.sessionId)?.meetingLink ?? null;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^https:\/\//);
  await page.goto('/tutor');
  await throughTerms(page, page.getByRole('heading', { name: /^Upcoming Sessions \(\d+\)$/ }));

  const card = page.getByRole('listitem', { name: `Calculus (Grade 11-12) with ${booking.studentName}` });
  await expect(page.getByRole('heading', { name: /^Upcoming Sessions \(\d+\)$/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Completed Sessions \(\d+\)$/ })).toBeVisible();
  await expect(card).toContainText(booking.studentName);
  await expect(card).toContainText('Scheduled');
  await expect(card).toContainText('Limits and derivatives');
  await expect(card.getByTestId('session-time')).toContainText(timeIn(booking.start, MAYA.zone));
  await expect(card.getByTestId('session-time')).toContainText('(60 minutes)');
  await expect(card.getByRole('link', { name: /Join Google Meet/ })).toHaveAttribute('href', /^https:\/\//);
  // With a Meet link there is nothing to invite again; before the start it cannot be completed.
  await expect(card.getByRole('button', { name: 'Send Invite' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Not Ready' })).toBeDisabled();
  await expect(card.getByText('In Progress')).toHaveCount(0);

  // The sync card: every upcoming session is in the calendar.
  await expect(page.getByTestId('calendar-sync')).toContainText('All sessions synced');
  await expect(page.getByTestId('calendar-sync')).toContainText(/Last synced: (Just now|\d+ minutes? ago)/);
  // The session's own calendar event is in the week view as a booked session: read-only, only Topmark moves it.
  await showWeekOf(page, Temporal.PlainDate.from(booking.day), MAYA.zone);
  const sessionEvent = page.getByTestId('calendar-week').getByRole('button', {
    name: new RegExp(
      `, booked session, ${dayLabel(Temporal.PlainDate.from(booking.day))}, ${timeIn(booking.start, MAYA.zone).replace(/\s/g, ' ')} – .*read-only$`,
    ),
  });
  await sessionEvent.click();
  const details = page.getByRole('dialog', { name: 'Booked session' });
  await expect(details).toContainText('use Reschedule or Cancel');
  await expect(details.getByRole('button', { name: /Delete/ })).toHaveCount(0);
  await layerSettled(page, details);
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);
  expect(await seriousViolations(page, 'tutor dashboard with a session')).toEqual([]);
  await page.screenshot({ path: '.tmp/tutor-shots/sessions.png', fullPage: true });

  // Reschedule: Cancel closes the dialog and gives focus back to the button; then to the other free hour of the day.
  const dialog = page.getByRole('dialog', { name: 'Reschedule Session' });
  await card.getByRole('button', { name: 'Reschedule' }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Reschedule' })).toBeFocused();
  await card.getByRole('button', { name: 'Reschedule' }).click();
  await expect(dialog.getByRole('button', { name: 'Confirm Reschedule' })).toBeDisabled();
  const calendar = dialog.getByTestId('reschedule-calendar');
  const today = new Date().toLocaleDateString('en-CA', { timeZone: MAYA.zone });
  await expect(calendar.locator('[data-today]')).toHaveAttribute('data-day', today);
  await chooseDay(calendar, booking.day);
  const slots = dialog.getByRole('group', { name: 'Available start times' });
  // The session's own hour does not block it.
  await expect(slots.getByRole('button', { name: timeIn(booking.start, MAYA.zone), exact: true })).toBeVisible();
  await slots.getByRole('button', { name: timeIn(booking.other, MAYA.zone), exact: true }).click();
  await expect(slots.getByRole('button', { name: timeIn(booking.other, MAYA.zone), exact: true })).toHaveAttribute('aria-pressed', 'true');
  expect(await seriousViolations(page, 'reschedule dialog')).toEqual([]);
  await page.screenshot({ path: '.tmp/tutor-shots/reschedule.png' });
  await dialog.getByRole('button', { name: 'Confirm Reschedule' }).click();
  await expect(page.getByText('Session Rescheduled', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(card.getByTestId('session-time')).toContainText(timeIn(booking.other, MAYA.zone));
  const moved = (await (await page.request.get(`/api/sessions/tutor/${booking.tutorId}`)).json()) as { id: string; date: string }[];
  expect(Date.parse(moved.find((s) => s.id === booking.sessionId)?.date ?? '')).toBe(Date.parse(booking.other));
  await expect(card.getByRole('button', { name: 'Not Ready' })).toBeDisabled();

  // A phone: no sideways scroll.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await card.screenshot({ path: '.tmp/tutor-shots/session-card-375.png' });
  await page.getByTestId('calendar-sync').screenshot({ path: '.tmp/tutor-shots/sync-card-375.png' });
});

test('once its start has passed, the tutor completes the session with notes; the student reads the report, one session used', async ({
  page,
  browser,
  request,
}) => {
  const booking = await studentBooksMaya(browser, request);
  // Ten minutes into the session, for the server and for both browsers.
  const during = new Date(Date.parse(booking.start) + 10 * 60_000);
  await moveServerClock(request, during);
  try {
    await page.clock.setFixedTime(during);
    await tutorSignIn(page, MAYA);
    await page.waitForURL((url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/dev'), { timeout: 20_000 });
    await page.goto('/tutor');
    await throughTerms(page, page.getByRole('heading', { name: /^Upcoming Sessions \(\d+\)$/ }));
    const card = page.getByRole('listitem', { name: `Calculus (Grade 11-12) with ${booking.studentName}` });
    await card.getByRole('button', { name: 'Complete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Complete Session' });
    const report = `Worked through limits; practise the epsilon-delta proofs (${unique()})`;
    await dialog.getByLabel('Session Notes (optional)').fill(report);
    await dialog.getByRole('button', { name: 'Complete Session' }).click();
    await expect(page.getByText('Session Completed', { exact: true })).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Completed sessions table' })).toContainText(report);

    // The student signs in (same Google identity) and reads the report; the course has used one of its four sessions.
    const student = await browser.newContext();
    const studentPage = await student.newPage();
    await studentPage.clock.setFixedTime(during);
    await studentPage.goto('/api/auth/google?userType=student');
    await googleStudent(studentPage, booking.studentEmail, 'Bea', booking.studentName.split(' ')[1] ?? '');
    await expect(studentPage).toHaveURL(/\/student$/, { timeout: 20_000 });
    const completed = studentPage.getByTestId('completed-sessions');
    await expect(completed).toContainText(report);
    await expect(completed).toContainText('completed');
    await expect(studentPage.getByTestId('sessions-remaining')).toHaveText('3 left');
    // One session held; the other three of the course are still to come.
    await expect(studentPage.getByTestId('completed-count')).toHaveText('1');
    await expect(studentPage.getByTestId('pending-count')).toHaveText('3');
    const me = (await (await studentPage.request.get('/api/user')).json()) as { student: { id: string } };
    const courses = (await (await studentPage.request.get(`/api/student/${me.student.id}/courses`)).json()) as {
      sessionsRemaining: number;
      totalSessions: number;
    }[];
    expect(courses).toEqual([expect.objectContaining({ totalSessions: 4, sessionsRemaining: 3 })]);
    await student.close();
  } finally {
    await moveServerClock(request, null);
  }
});

test('a tutor without sessions sees the empty states and nothing to sync', async ({ page, request }) => {
  const n = unique();
  const who = { email: `fresh${n}@example.com`, firstName: 'Fern', lastName: `Fresh${n}` };
  const admin = await adminApi(request);
  expect((await admin.post('/api/admin/tutors/invite', { data: { email: who.email } })).ok()).toBe(true);
  await tutorSignIn(page, who);
  await throughTerms(page, page.getByRole('heading', { name: 'Application Submitted!' }));
  let applicationId: string | undefined;
  await expect
    .poll(async () => {
      const list = (await (await admin.get('/api/admin/tutor-applications')).json()) as { id: string; email: string }[];
      applicationId = list.find((a) => a.email === who.email)?.id;
      return applicationId;
    })
    .toBeTruthy();
  const approved = await admin.post(`/api/admin/tutors/${applicationId}/approve`);
  expect(approved.ok(), await approved.text()).toBe(true);
  await tutorSignIn(page, who);
  await throughTerms(page, page.getByRole('heading', { name: /Welcome to Topmark, Fern/ }));
  // Straight to the dashboard, as "Go to dashboard" on onboarding does.
  await page.evaluate(`sessionStorage.setItem('topmark.tutorDashboardChosen', '1')`);
  await page.goto('/tutor');
  await throughTerms(page, page.getByRole('heading', { name: 'Upcoming Sessions (0)' }));
  await expect(page.getByRole('heading', { name: 'Completed Sessions (0)' })).toBeVisible();
  await expect(page.getByText('No upcoming sessions')).toBeVisible();
  await expect(page.getByText('No completed sessions yet')).toBeVisible();
  await expect(page.getByTestId('calendar-sync')).toContainText('No sessions to sync yet');
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
});
