import { expect, test } from '@playwright/test';
import { seriousViolations } from './browser.ts';
import { freeHours, studentWithMaya } from './studentBooking.ts';
import { MAYA } from './tutorCalendar.ts';

/**
 * One meaning of "remaining" (issue 24 item 2): a 4-session course's card reads its credits as used /
 * booked / left, and offers Repurchase and End Course exactly when the server accepts them. With
 * every session booked the card offered End Course, which the server refused.
 */
test('every session of a 4-session course booked: 0 used · 4 booked · 0 left, Repurchase but no End Course; a cancellation gives one back', async ({
  page,
  request,
}) => {
  const who = await studentWithMaya(page, request, true, { firstName: 'Cora', lastName: 'Credits', emailPrefix: 'credits' });
  expect(who.packageInfo.sessionCount).toBe(4);
  // Weeks ahead (other browser tests book Maya from tomorrow): four free hours of one day, each booked as the dialog would.
  const { starts } = await freeHours(page.request, who.tutor.id, { fromDays: 24, zone: MAYA.zone, count: 4 });
  const sessionIds: string[] = [];
  for (const start of starts) {
    const booked = await page.request.post('/api/book-session', {
      data: { tutorId: who.tutor.id, studentCourseId: who.courseId, date: start, duration: 60, notes: 'Practice' },
    });
    expect(booked.status(), await booked.text()).toBe(201);
    sessionIds.push(((await booked.json()) as { id: string }).id);
  }

  await page.goto('/student');
  const course = page.getByTestId('course-row').filter({ hasText: who.subject.name });
  await expect(course.getByTestId('course-credits')).toHaveText('0 used · 4 booked · 0 left');
  await expect(course).toContainText('4 sessions: 0 used · 4 booked · 0 left');
  await expect(course.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  // Every credit is taken: more may be bought ahead; ending it waits for the booked sessions.
  await expect(course.getByRole('button', { name: 'Repurchase' })).toBeVisible();
  await expect(course.getByRole('button', { name: 'End Course' })).toHaveCount(0);
  // The server agrees: End Course is refused with its reason.
  const refused = await page.request.patch(`/api/student-courses/${who.courseId}/end`, { data: { status: 'inactive' } });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toEqual({ message: 'A course can be ended only when it has no sessions remaining' });
  expect(await seriousViolations(page, 'dashboard with every session booked')).toEqual([]);

  // A timely cancellation gives its credit back: one left to book, so neither is offered.
  const [first] = sessionIds;
  const cancelled = await page.request.post(`/api/sessions/${first}/cancel`, { data: { reason: 'Clash with school' } });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  await page.reload();
  await expect(course.getByTestId('course-credits')).toHaveText('0 used · 3 booked · 1 left');
  await expect(course.getByRole('button', { name: 'Repurchase' })).toHaveCount(0);
  await expect(course.getByRole('button', { name: 'End Course' })).toHaveCount(0);
  await expect(page.getByTestId('pending-count')).toHaveText('4');
});
