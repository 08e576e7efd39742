import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { unique } from './helpers.ts';

/** Signs in as the e2e admin (tests/e2e/serve.ts) and opens the Create Tutor tab. */
async function openCreateTutor(page: Page) {
  await page.goto('/admin-login');
  await page.getByLabel('Username').fill('e2e.admin');
  await page.getByLabel('Password', { exact: true }).fill('admin-pass-1');
  await page.getByRole('button', { name: /Sign In|Log In|Login/ }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin?tab=create-tutor');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Tutor' })).toBeVisible();
}

test('an invitation is listed beside the form, a second invite is refused, Revoke asks first and the link stops working', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const email = `invitee.${unique()}@example.com`;
  await openCreateTutor(page);
  const list = page.getByRole('region', { name: /Outstanding invitations/ });
  await expect(list).toBeVisible();

  await page.getByLabel('Tutor email').fill(email);
  await page.getByLabel('Tutor email').press('Enter');
  await expect(page.getByText('Invitation Sent').first()).toBeVisible();
  const item = list.getByTestId('outstanding-invitation').filter({ hasText: email });
  await expect(item).toContainText('Sent once, last just now');
  await expect(item).toContainText('by Erin Admin');

  // Inviting the address again sends nothing: the server says to resend from the list.
  await page.getByLabel('Tutor email').fill(email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('An invitation to this address is already outstanding — resend it from the list').first()).toBeVisible();
  await expect(item).toHaveCount(1);
  // Too soon to send it again: the server's words.
  await item.getByRole('button', { name: `Resend the invitation to ${email}` }).click();
  await expect(page.getByText(/sent less than a minute ago/).first()).toBeVisible();

  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.screenshot({ path: '.tmp/admin-shots/invitations.png', fullPage: true });

  await item.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Revoke this invitation?' });
  await expect(dialog).toContainText(email);
  await dialog.getByRole('button', { name: 'Revoke invitation' }).click();
  await expect(page.getByText('Invitation Revoked').first()).toBeVisible();
  await expect(item).toHaveCount(0);

  // The invitee signs in with the revoked invitation: told, and no application is submitted.
  const context = await browser.newContext();
  const tutor = await context.newPage();
  await tutor.goto('/api/auth/google?userType=tutor');
  await tutor.getByLabel('Email').fill(email);
  await tutor.getByLabel(/First name/i).fill('Rae');
  await tutor.getByLabel(/Last name/i).fill('Revoked');
  await tutor.getByRole('button', { name: 'Continue' }).click();
  await expect(tutor).toHaveURL(/status=invitation_revoked/);
  await expect(tutor.getByRole('heading', { name: 'This invitation has been withdrawn' })).toBeVisible();
  await context.close();
});
