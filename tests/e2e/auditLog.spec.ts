import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { signIn } from './helpers.ts';

/**
 * The admin's own sign-in is an audit entry: it shows on Overview's Recent Activity, the Audit Log
 * filtered by the admin's id lists only that entity's events, and the CSV holds the same rows.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

test('an admin sees recent activity on Overview, filters the audit log by an entity and downloads the CSV', async ({ page }) => {
  await signIn(page, 'e2e.admin', 'admin-pass-1');
  await expect(page).toHaveURL(/\/admin/);
  const me = (await (await page.request.get('/api/user')).json()) as { id: string };

  await page.goto('/admin?tab=overview');
  const feed = page.getByTestId('recent-activity');
  const signedIn = feed.getByRole('listitem').filter({ hasText: 'Erin Admin (admin): Signed in (password)' }).first();
  // The audit log projection records the sign-in a moment after it happened.
  await expect(async () => {
    await page.reload();
    await expect(signedIn).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(signedIn.locator('time')).toHaveText(/just now|minute/);
  // Names, not ids: the entity is the admin by name, opening their history.
  await signedIn.getByRole('button', { name: 'Open the history of user Erin Admin' }).click();
  await expect(page).toHaveURL(new RegExp(`history=user%3A${me.id}|history=user:${me.id}`));
  // People's language everywhere in the feed: no id in what any line says (names, or the kind of thing).
  for (const text of await feed.getByRole('listitem').allInnerTexts()) expect(text).not.toMatch(UUID);

  await page.goto('/admin?tab=audit-log');
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible();
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  // Every row of the first page, whatever it is about: When, Who, What and Entity read without ids,
  // and the type under each description is words ("Session booked"), not the recorded SessionBooked.
  for (const text of await page.getByTestId('audit-row').locator('td:nth-child(-n+4)').allInnerTexts()) expect(text).not.toMatch(UUID);
  for (const text of await page.getByTestId('audit-row').locator('td:nth-child(3)').allInnerTexts()) {
    expect(text).not.toMatch(/\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b/);
  }
  await page.getByLabel('Entity id').fill(me.id);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const rows = page.getByTestId('audit-row');
  await expect(rows.filter({ hasText: 'Signed in (password)' }).first()).toBeVisible();
  await expect(rows.filter({ hasNot: page.getByRole('button', { name: 'Open the history of user Erin Admin' }) })).toHaveCount(0);
  // Who and which entity read as names: the raw id is left to the Changes column (the recorded data).
  await expect(rows.locator('td:nth-child(2), td:nth-child(4)').filter({ hasText: me.id })).toHaveCount(0);
  await expect(rows.locator('td:nth-child(5)').filter({ hasText: /\d{4}-\d{2}-\d{2}T/ })).toHaveCount(0);
  const shown = await rows.count();

  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
  expect(lines[0]).toContain('"entity_id"');
  // Beside the ids, the names and words the console shows: the entity's name, the event type in words.
  expect(lines[0]).toContain('"action","event","description"');
  expect(lines[0]).toContain('"entity_kind","entity_name"');
  expect(lines.length - 1).toBeGreaterThanOrEqual(shown);
  for (const line of lines.slice(1)) expect(line).toContain(`"${me.id}","user","Erin Admin"`);
  expect(lines.some((line) => line.includes('"Signed in (password)"'))).toBe(true);

  // Filters in people's language: who by name, the type from a picker of words.
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Who').fill('erin adm');
  await page.getByLabel('Type').selectOption({ label: 'Signed in' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(rows.first()).toContainText('Signed in (password)');
  await expect(rows.filter({ hasNotText: 'Erin Admin' })).toHaveCount(0);
  await expect(rows.filter({ hasNotText: 'Signed in' })).toHaveCount(0);
  await page.getByLabel('Who').fill('nobody by this name');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText('No events match these filters')).toBeVisible();

  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await page.goto('/admin?tab=overview');
  await expect(feed).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});
