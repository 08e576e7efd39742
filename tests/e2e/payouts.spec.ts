import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { signIn } from './helpers.ts';
import { E2E_PAYOUT_DAY } from './payoutsSeed.ts';

/**
 * Finance runs a payout (issue 12 §3): a finance user sees Purchases and Payouts only, opens the
 * ended period serve.ts seeded (two sessions at 45.00), approves it and downloads its CSV.
 */
test('a finance user approves a payout period and downloads its CSV', async ({ page }) => {
  await signIn(page, 'e2e.finance', 'finance-pass-1');
  // Spec part 1 §2: /login sends roles without an area of their own home; finance opens the console.
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await page.goto('/admin');
  const sections = page.getByRole('navigation', { name: 'Admin sections' });
  await expect(sections.getByRole('link')).toHaveText([/^Purchases/, /^Payouts/]);
  await sections.getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByRole('heading', { name: 'Payouts', level: 1 })).toBeVisible();

  await page.getByLabel('Any day in the period').fill(E2E_PAYOUT_DAY);
  await expect(page.getByTestId('payout-period')).toContainText('Jan 1, 2025 – Jan 15, 2025');
  await expect(page.getByTestId('payout-status')).toHaveText('Open');
  const line = page.getByTestId('payout-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('$45.00/h');
  await expect(line).toContainText('$90.00');
  await expect(page.getByTestId('payout-total')).toHaveText('$90.00');
  // Rates are an admin's decision: finance gets no rate control.
  await expect(page.getByRole('button', { name: /Change .* rate/ })).toHaveCount(0);

  // The line opens the sessions behind it (issue 24 item 4): when, in the viewer's zone, what, how long, the amount; they add up to the line.
  await line.getByRole('button', { name: /^Show the 2 sessions behind .+'s line$/ }).click();
  const drill = page.getByRole('dialog', { name: /: sessions$/ });
  const held = drill.getByTestId('payout-session');
  await expect(held).toHaveCount(2);
  const shownAt = (iso: string) =>
    page.evaluate((at) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)), iso);
  await expect(held.nth(0)).toContainText(await shownAt('2025-01-06T15:00:00.000Z'));
  await expect(held.nth(1)).toContainText(await shownAt('2025-01-07T15:00:00.000Z'));
  for (const text of ['Math (Grade 10 & Under)', '60 min', '$45.00', 'Completed']) await expect(held.nth(0)).toContainText(text);
  await expect(drill.getByTestId('payout-sessions-total')).toHaveText('$90.00');
  await expect(drill.getByTestId('payout-sessions-changed')).toHaveCount(0);
  const drillAxe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(drillAxe.violations.map((v) => v.id)).toEqual([]);
  // On a phone the dialog's table fits without scrolling sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  const dialogOverflow = "(() => { const d = document.querySelector('[role=dialog]'); return d.scrollWidth - d.clientWidth; })()";
  expect(Number(await page.evaluate(dialogOverflow))).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.keyboard.press('Escape');
  await expect(drill).toHaveCount(0);

  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Approve this payout?' });
  await expect(confirm).toContainText('$90.00');
  await confirm.getByRole('button', { name: 'Approve payout' }).click();
  await expect(page.getByText('Period approved', { exact: true })).toBeVisible();
  await expect(page.getByTestId('payout-status')).toHaveText('Approved');
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

  const downloading = page.waitForEvent('download');
  await page.getByTestId('payout-csv').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('topmark-payouts-2025-01-01-to-2025-01-15.csv');
  const csv = readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(csv[0]).toBe('period_start,period_end,status,kind,tutor_id,tutor_name,sessions,hours,rate,amount,note');
  expect(csv[1]).toMatch(/^2025-01-01,2025-01-15,approved,sessions,[^,]+,[^,]+,2,2,45\.00,90\.00,$/);
  expect(csv.at(-1)).toBe('2025-01-01,2025-01-15,approved,total,,,,,,90.00,');

  // Finance is refused everywhere else, entity histories and rate changes included.
  expect((await page.request.get('/api/admin/alerts')).status()).toBe(403);
  expect((await page.request.put('/api/admin/tutors/any/rate', { data: { hourlyRate: 50, reason: 'x' } })).status()).toBe(403);

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId('payout-total')).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);
});

/**
 * After approval, an admin corrects the tutor's rate back in time: the approved period keeps its
 * figures, and the difference is an adjustment line of the next open period.
 */
test('an admin changes a rate retroactively: the approved period stays, the next one adjusts', async ({ page }) => {
  await signIn(page, 'e2e.admin', 'admin-pass-1');
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin?tab=payouts');
  await page.getByLabel('Any day in the period').fill(E2E_PAYOUT_DAY);
  await expect(page.getByTestId('payout-status')).toHaveText('Approved');

  await page
    .getByTestId('payout-line')
    .getByRole('button', { name: /Change .* rate/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Change hourly rate' });
  await dialog.getByLabel('Hourly rate (CAD)').fill('50');
  await dialog.getByLabel('Effective from (empty: now)').fill('2025-01-01T00:00');
  await dialog.getByRole('button', { name: 'Change rate' }).click();
  await expect(dialog.getByText('A reason is required')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Rate agreed in November');
  await dialog.getByRole('button', { name: 'Change rate' }).click();
  await expect(page.getByText('Rate changed', { exact: true })).toBeVisible();

  await expect(page.getByTestId('payout-total')).toHaveText('$90.00');
  // The approved line keeps its figures; its sessions now come to more, and the drill-down says where the difference goes.
  await page
    .getByTestId('payout-line')
    .getByRole('button', { name: /^Show the 2 sessions behind/ })
    .click();
  const drill = page.getByRole('dialog', { name: /: sessions$/ });
  await expect(drill.getByTestId('payout-session')).toHaveCount(2);
  await expect(drill.getByTestId('payout-sessions-total')).toHaveText('$100.00');
  await expect(drill.getByTestId('payout-sessions-changed')).toContainText('adjustment in the next open period');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Next period' }).click();
  await expect(page.getByTestId('payout-period')).toContainText('Jan 16, 2025 – Jan 31, 2025');
  const adjustment = page.getByTestId('payout-line').filter({ hasText: 'Adjustment' });
  await expect(adjustment).toContainText('$10.00');
  await expect(adjustment).toContainText('Adjustment to the approved period starting Jan 1, 2025');
  await expect(page.getByTestId('payout-total')).toHaveText('$10.00');
});
