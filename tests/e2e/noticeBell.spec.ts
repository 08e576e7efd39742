import { expect, test } from '@playwright/test';
import { seriousViolations } from './browser.ts';
import { studentWithMaya } from './studentBooking.ts';

/**
 * The bell and the notification settings (docs/sessions-calendar.md "Notification settings and
 * in-app notices"): a new student pays for a package, the receipt is in their bell, unread; the
 * list opens with focus inside, "Mark all read" clears the count, Escape gives focus back to the
 * bell; turning reminders off in the Notifications card is kept.
 */
test('a student sees their receipt in the bell, marks all read, and turns reminders off', async ({ page, request }) => {
  test.setTimeout(90_000);
  await studentWithMaya(page, request, false, { firstName: 'Nia', lastName: 'Bell', emailPrefix: 'bellstudent' });
  await page.goto('/student');

  const bell = page.getByTestId('notice-bell');
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await expect(page.getByTestId('notice-count')).toHaveText('1');
  await bell.click();
  const list = page.getByRole('dialog', { name: 'Notifications' });
  await expect(list).toBeVisible();
  const notice = list.getByTestId('notice');
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('Order confirmed: nothing charged');
  await expect(notice).toHaveAttribute('data-unread', 'true');
  // Focus moved into the list.
  expect(await list.evaluate((el) => el.contains(el.ownerDocument.activeElement))).toBe(true);
  expect(await seriousViolations(page, 'the bell')).toEqual([]);
  await page.screenshot({ path: '.tmp/notice-bell.png' });

  await list.getByRole('button', { name: 'Mark all read' }).click();
  await expect(notice).toHaveAttribute('data-unread', 'false');
  await expect(list.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(page.getByTestId('notice-count')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(bell).toBeFocused();

  const card = page.getByTestId('notification-settings');
  const reminders = card.getByRole('checkbox', { name: /^Reminders/ });
  await expect(reminders).toBeChecked();
  await reminders.uncheck();
  await card.getByRole('button', { name: 'Save notification settings' }).click();
  await expect(page.getByText('Notification settings saved', { exact: true })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '.tmp/notification-settings.png' });
  expect(await seriousViolations(page, 'the Notifications card')).toEqual([]);

  await page.reload();
  await expect(page.getByTestId('notification-settings').getByRole('checkbox', { name: /^Reminders/ })).not.toBeChecked();
  await expect(page.getByTestId('notification-settings').getByRole('checkbox', { name: /^Session booked/ })).toBeChecked();
  // Read state is kept on the server.
  await expect(page.getByTestId('notice-bell')).toHaveAccessibleName('Notifications');
});
