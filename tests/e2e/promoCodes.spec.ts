import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { unique } from './helpers.ts';

/** Signs in as the e2e admin (tests/e2e/serve.ts) and opens the Promo Codes tab. */
async function openPromoCodes(page: Page) {
  await page.goto('/admin-login');
  await page.getByLabel('Username').fill('e2e.admin');
  await page.getByLabel('Password', { exact: true }).fill('admin-pass-1');
  await page.getByRole('button', { name: /Sign In|Log In|Login/ }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin?tab=promo-codes');
  await expect(page.getByRole('button', { name: 'Create promo code' })).toBeVisible();
}

const card = (page: Page, code: string) => page.getByRole('listitem', { name: `Promo code ${code}` });

test('the admin creates a promo code, sees its card, edits it; the form says what is wrong', async ({ page }) => {
  const code = `SPRING${unique().toUpperCase()}`;
  await openPromoCodes(page);

  await page.getByRole('button', { name: 'Create promo code' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Discount type')).toHaveValue('percentage');
  await expect(dialog.getByLabel('Active')).toBeChecked();
  await expect(dialog.getByLabel('Discount (%)')).toHaveAttribute('step', '1');

  // Nothing filled in: the spec's messages.
  await dialog.getByRole('button', { name: 'Create promo code' }).click();
  await expect(dialog.getByText('Code is required')).toBeVisible();
  await expect(dialog.getByText('Discount value must be positive')).toBeVisible();
  await dialog.getByLabel('Code').fill('X'.repeat(51));
  await dialog.getByLabel('Discount (%)').fill('0');
  await dialog.getByLabel(/Max uses/).fill('0');
  await dialog.getByRole('button', { name: 'Create promo code' }).click();
  await expect(dialog.getByText('Code must be at most 50 characters')).toBeVisible();
  await expect(dialog.getByText('Discount value must be positive')).toBeVisible();
  await expect(dialog.getByText('Max uses must be at least 1, or empty for unlimited')).toBeVisible();

  await dialog.getByLabel('Code').fill(code.toLowerCase());
  await dialog.getByLabel('Description (optional)').fill('Spring sale');
  await dialog.getByLabel('Discount (%)').fill('15');
  await dialog.getByLabel(/Max uses/).fill('');
  await dialog.getByRole('button', { name: 'Create promo code' }).click();
  await expect(page.getByText('Promo code created successfully').first()).toBeVisible();
  await expect(dialog).toBeHidden();

  const created = card(page, code);
  await expect(created).toBeVisible();
  await expect(created.getByText('Active', { exact: true })).toBeVisible();
  await expect(created.getByText('Spring sale')).toBeVisible();
  await expect(created.getByText('15%')).toBeVisible();
  await expect(created.getByText('0 (unlimited)')).toBeVisible();

  // The same code again is refused by the server, in its words.
  await page.getByRole('button', { name: 'Create promo code' }).click();
  await dialog.getByLabel('Code').fill(code);
  await dialog.getByLabel('Discount (%)').fill('5');
  await dialog.getByRole('button', { name: 'Create promo code' }).click();
  await expect(page.getByText('Failed to create promo code: A promo code with this code already exists').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Edit: a fixed amount, limited, inactive, with an expiry.
  await created.getByRole('button', { name: `Edit ${code}` }).click();
  await expect(dialog.getByLabel('Code')).toHaveValue(code);
  await dialog.getByLabel('Discount type').selectOption('fixed_amount');
  await expect(dialog.getByLabel('Discount ($)')).toHaveAttribute('step', '0.01');
  await dialog.getByLabel('Discount ($)').fill('25.5');
  await dialog.getByLabel(/Max uses/).fill('10');
  await dialog.getByLabel('Valid until (optional)').fill('2099-06-30T12:00');
  await dialog.getByLabel('Active').uncheck();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Promo code updated successfully').first()).toBeVisible();
  await expect(created.getByText('Inactive', { exact: true })).toBeVisible();
  await expect(created.getByText('$25.50')).toBeVisible();
  await expect(created.getByText('0/10')).toBeVisible();
  await expect(created.getByText('Jun 30, 2099')).toBeVisible();

  await created.getByRole('button', { name: 'View redemptions' }).click();
  await expect(page.getByText('No redemptions yet.')).toBeVisible();

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: '.tmp/admin-shots/promo-codes.png', fullPage: true });
});
