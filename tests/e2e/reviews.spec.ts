import { expect, test } from '@playwright/test';
import { seriousViolations } from './browser.ts';
import { moveServerClock, unique } from './helpers.ts';
import { freeHours, studentWithMaya } from './studentBooking.ts';
import { MAYA, throughTerms, tutorSignIn } from './tutorCalendar.ts';

/**
 * Reviews (issue 24 §3) from completion to the tutor card: a student's session with Maya is
 * completed by Maya once it has started (the server's clock moved into it), the student rates it
 * from the dashboard, and Maya's card counts the review and the completed session.
 */

test.use({ timezoneId: 'America/Toronto' });

test('a completed session is rated by the student once; the tutor sees the review and the card counts it', async ({
  page,
  browser,
  request,
}) => {
  const context = await browser.newContext();
  const studentPage = await context.newPage();
  const who = await studentWithMaya(studentPage, request, true, { firstName: 'Rae', lastName: 'Rater', emailPrefix: 'rater' });
  // Weeks ahead: the session is completed under a moved clock and stays completed at a real future
  // hour, which the later browser tests' bookings with Maya (from tomorrow) must not meet.
  const {
    starts: [start],
  } = await freeHours(studentPage.request, who.tutor.id, { fromDays: 16, zone: MAYA.zone, count: 1 });
  const booked = await studentPage.request.post('/api/book-session', {
    data: { tutorId: who.tutor.id, studentCourseId: who.courseId, date: start, duration: 60, notes: 'Limits' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const sessionId = ((await booked.json()) as { id: string }).id;
  const before = (await (await request.get(`/api/tutors/${who.tutor.id}`)).json()) as { reviewCount: number; totalSessions: number };

  const during = new Date(Date.parse(start as string) + 10 * 60_000);
  await moveServerClock(request, during);
  try {
    // Maya completes the session (its start has passed for the server).
    await tutorSignIn(page, MAYA);
    await page.waitForURL((url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/dev'), { timeout: 20_000 });
    const completed = await page.request.patch(`/api/sessions/${sessionId}/complete`, {
      data: { completed: true, notes: 'Good progress' },
    });
    expect(completed.status(), await completed.text()).toBe(200);

    // The student rates it from the dashboard's completed sessions.
    await studentPage.clock.setFixedTime(during);
    await studentPage.goto('/student');
    await throughTerms(studentPage, studentPage.getByTestId('completed-sessions'));
    const list = studentPage.getByTestId('completed-sessions');
    await list.getByRole('button', { name: 'Rate this session' }).click();
    const dialog = studentPage.getByRole('dialog', { name: 'Rate this session' });
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await expect(dialog.getByText('Choose from 1 to 5 stars')).toBeVisible();
    await dialog.getByRole('radio', { name: '4 stars' }).check({ force: true });
    const comment = `Clear explanations (${unique()})`;
    await dialog.getByLabel('Comment (optional)').fill(comment);
    expect(await seriousViolations(studentPage, 'rating dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await expect(studentPage.getByText('Thank you for your review').first()).toBeVisible();
    await expect(list.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();
    await expect(list.getByRole('button', { name: 'Edit review' })).toBeVisible();
    // Once: a second first rating is refused.
    const again = await studentPage.request.post(`/api/sessions/${sessionId}/review`, { data: { rating: 5 } });
    expect(again.status()).toBe(409);

    // Maya reads it on her dashboard.
    await page.goto('/tutor');
    await throughTerms(page, page.getByRole('heading', { name: 'Reviews' }));
    await expect(page.getByText(comment)).toBeVisible();
    expect(await seriousViolations(page, 'tutor dashboard with a review')).toEqual([]);

    // The card counts the review and the completed session.
    await page.goto('/tutors');
    const card = page.getByTestId('tutor-card').filter({ hasText: `${MAYA.firstName} ${MAYA.lastName}` });
    const count = before.reviewCount + 1;
    await expect(card).toContainText(`(${count} ${count === 1 ? 'review' : 'reviews'})`);
    await expect(card).toContainText(`${before.totalSessions + 1} session`);
  } finally {
    await moveServerClock(request, null);
    await context.close();
  }
});
