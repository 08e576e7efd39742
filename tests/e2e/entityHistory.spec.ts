import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { signIn } from './helpers.ts';
import { dayWithTwoSlots, newYorkStart, studentWithMaya } from './studentBooking.ts';

/**
 * Entity history and time travel (issue 12 §6): a session booked and moved through the API; an
 * admin opens its history from the URL and from the Overview's "Open entity" box, steps back one
 * revision (the folded state goes back to the first hour), follows the booking's story across
 * entities, and closes the panel with Escape.
 */

const NY = 'America/New_York';

test('an admin opens a session’s history and steps back in time to the hour it was first booked at', async ({ page, request }) => {
  test.setTimeout(120_000);
  const who = await studentWithMaya(page, request, true, { firstName: 'Hal', lastName: 'Story', emailPrefix: 'historystudent' });
  const { courseId } = who;
  const tutorId = who.tutor.id;
  const { day, first, second } = await dayWithTwoSlots(page.request, tutorId, 3);
  const nyInstant = (time: string) => new Date(newYorkStart(day, time)).toISOString();
  const booked = await page.request.post('/api/book-session', {
    data: { tutorId, studentCourseId: courseId, date: nyInstant(first), duration: 60, notes: 'Limits' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const sessionId = ((await booked.json()) as { id: string }).id;
  const moved = await page.request.patch(`/api/sessions/${sessionId}/reschedule`, { data: { newDate: `${day}T${second}`, timezone: NY } });
  expect(moved.status(), await moved.text()).toBe(200);

  await page.context().clearCookies();
  await signIn(page, 'e2e.admin', 'admin-pass-1');
  await expect(page).toHaveURL(/\/admin/, { timeout: 10_000 });

  // Straight from the URL: the panel opens over the tab at the session's head (moved to the second hour).
  await page.goto(`/admin?tab=alerts&history=session:${sessionId}`);
  const panel = page.getByRole('dialog', { name: 'Session history' });
  await expect(panel).toBeVisible();
  const timeline = panel.getByRole('region', { name: /Timeline/ });
  // People's language: the session by its subject and people, event types as words, actors by name.
  await expect(panel.getByTestId('entity-history-name')).toHaveText(/ · .+ with .+/);
  await expect(timeline.getByRole('button', { name: /Session booked/ })).toBeVisible();
  await expect(timeline.getByRole('button', { name: /Session rescheduled/ })).toHaveAttribute('aria-current', 'step');
  await expect(timeline).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
  const state = panel.getByTestId('history-state');
  await expect(state).toHaveAttribute('data-revision', '1');
  await expect(state).toContainText(`"start": "${nyInstant(second)}"`);
  await expect(panel.getByTestId('history-changes')).toContainText('start');

  // One step back in time: the state as the booking left it.
  await panel.getByRole('button', { name: 'Previous event' }).click();
  await expect(state).toHaveAttribute('data-revision', '0');
  await expect(state).toContainText(`"start": "${nyInstant(first)}"`);
  await expect(panel.getByLabel(/Revision 0 of 1/)).toHaveValue('0');
  await expect(timeline.getByRole('button', { name: /Session booked/ })).toHaveAttribute('aria-current', 'step');

  await page.screenshot({ path: '.tmp/history-shots/session-revision-0.png' });

  // Time travel by date: before the booking the session did not exist; tomorrow it is at its head.
  const travel = panel.getByRole('form', { name: 'Go to a date and time' });
  await travel.getByLabel('As it was on').fill('2021-01-01T09:00');
  await travel.getByRole('button', { name: 'Go' }).click();
  await expect(travel.getByRole('status')).toContainText('The session did not exist yet on Jan 1, 2021');
  await expect(state).toHaveAttribute('data-revision', '0');
  const tomorrow = new Date(Date.now() + 86_400_000);
  const local = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}T12:00`;
  await travel.getByLabel('As it was on').fill(local);
  await travel.getByRole('button', { name: 'Go' }).click();
  await expect(state).toHaveAttribute('data-revision', '1');
  await expect(travel.getByRole('status')).toContainText('revision 1');
  await panel.getByRole('button', { name: 'Previous event' }).click();
  await expect(state).toHaveAttribute('data-revision', '0');

  // The booking's story crosses the tutor's schedule, the course's ledger and the session.
  await panel.getByRole('button', { name: 'Follow this story' }).click();
  const story = panel.getByTestId('history-story');
  await expect(story).toContainText('Tutor hour claimed');
  await expect(story).toContainText('Course credit reserved');
  const openCourse = story.getByRole('button', { name: `Open the history of course ${courseId}` });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await openCourse.click();
  await expect(page.getByRole('dialog', { name: 'Course history' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`history=course(%3A|:)${courseId}`));

  // Phone width: no sideways page scroll.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.screenshot({ path: '.tmp/history-shots/course-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Escape closes it and takes `history` off the URL, keeping the tab.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\?tab=alerts$/);

  // The Overview's "Open entity" box opens any entity by kind and id.
  await page.goto('/admin?tab=overview');
  const open = page.getByRole('form', { name: 'Open entity' });
  await open.getByLabel('Entity kind').selectOption('session');
  await open.getByLabel('Entity id').fill(sessionId);
  await open.getByRole('button', { name: 'Open entity' }).click();
  await expect(page.getByRole('dialog', { name: 'Session history' })).toBeVisible();
  await expect(page.getByRole('dialog').getByTestId('history-state')).toHaveAttribute('data-revision', '1');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\?tab=overview$/);
});
