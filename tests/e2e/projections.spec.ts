import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { chooseDay } from './datePicker.ts';
import { dayWithTwoSlots, gridLabel, studentWithMaya } from './studentBooking.ts';

/**
 * The console's Projections page (issue 12 §7): an admin rebuilds every projection while a
 * student books a session in a browser of their own; the rebuild's progress shows, the site keeps
 * answering, and the booking is there afterwards (in the rebuilt sessions read model too).
 */

async function signInAdmin(page: Page) {
  await page.goto('/admin-login');
  await page.getByLabel('Username').fill('e2e.admin');
  await page.getByLabel('Password', { exact: true }).fill('admin-pass-1');
  await page.getByRole('button', { name: /Sign In|Log In|Login/ }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

test('an admin rebuilds the projections while a student books; the progress shows and the booking appears afterwards', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  // The student, in a browser of their own, with a course and Maya chosen.
  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  const who = await studentWithMaya(student, request, true);
  const { day, first } = await dayWithTwoSlots(student.request, who.tutor.id, 5);
  await student.goto('/student');
  await student.getByRole('button', { name: `Book a session: ${who.subject.name}` }).click();
  await student.getByRole('dialog', { name: 'Confirm Tutor Selection' }).getByRole('button', { name: 'Select This Tutor' }).click();
  const schedule = student.getByRole('dialog', { name: 'Schedule Your Session' });
  await chooseDay(schedule.getByTestId('booking-calendar'), day);
  await schedule.getByRole('button', { name: gridLabel(day, first), exact: true }).click();

  // The admin opens Projections from the System group.
  await signInAdmin(page);
  await page.getByRole('navigation', { name: 'System' }).getByRole('link', { name: 'Projections' }).click();
  await expect(page).toHaveURL(/tab=projections/);
  const sessionsRow = page.getByTestId('projection-row').filter({ has: page.getByText('sessions', { exact: true }) });
  await expect(sessionsRow).toContainText('running');
  // Where it is in the log, in words: up to date (or how many events behind) and when its last event was recorded, in the viewer's zone;
  // the raw position only behind Raw position.
  const position = sessionsRow.getByTestId('projection-position');
  await expect(position).toContainText(/Up to date|events? behind/);
  await expect(position).toContainText(/Last event [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/);
  const raw = position.locator('code');
  await expect(raw).toBeHidden();
  await position.getByText('Raw position').click();
  await expect(raw).toBeVisible();
  await expect(raw).not.toBeEmpty();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // Rebuild all (confirmed), and the student books while it runs.
  await page.getByRole('button', { name: 'Rebuild all' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Rebuild all' }).click();
  await expect(page.getByText('Rebuild started', { exact: true })).toBeVisible();
  await schedule.getByRole('button', { name: 'Book Session' }).click();
  await expect(student.getByText('Session Booked', { exact: true })).toBeVisible();

  // The progress shows (live, or the finished rebuild's figures when it ended between two polls).
  const progress = sessionsRow.getByRole('progressbar', { name: 'Rebuild of sessions' });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuetext', /events/);
  await expect(sessionsRow.getByTestId('rebuild-progress')).toContainText('Rebuilt', { timeout: 60_000 });
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  await expect(sessionsRow).toContainText('running');
  await expect(page.getByRole('button', { name: 'Rebuild all' })).toBeEnabled();

  // Afterwards the booking is on the student's dashboard, read from the rebuilt tables.
  await student.reload();
  const upcoming = student.getByRole('region', { name: 'Upcoming Sessions' });
  await expect(upcoming.getByRole('listitem').filter({ hasText: who.subject.name }).filter({ hasText: '60 min' })).toHaveCount(1);
  await studentContext.close();

  // The page works on a phone too.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.screenshot({ path: '.tmp/admin-shots/projections-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('navigation', { name: 'System' }).getByRole('link', { name: 'Jobs' }).click();
  await expect(page.getByRole('heading', { name: 'Queues' })).toBeVisible();
  await expect(page.getByTestId('queue-row').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Schedules' })).toBeVisible();
  await page.screenshot({ path: '.tmp/admin-shots/jobs.png', fullPage: true });
  await page.getByRole('navigation', { name: 'System' }).getByRole('link', { name: 'Mailbox' }).click();
  await expect(page.getByRole('heading', { name: /Sent mail/ })).toBeVisible();
});
