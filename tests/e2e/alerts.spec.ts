import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { googleStudent, signIn, unique } from './helpers.ts';

/**
 * A declined card raises a payment_failed alert (the payment saga's PurchaseFailed); an admin
 * finds it in the Alerts tab (with the sidebar badge), resolves it with a note, and finds it
 * among the resolved ones.
 */
async function declinedPurchase(context: BrowserContext): Promise<string> {
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await googleStudent(page, `declined${unique()}@example.com`, 'Dee', 'Clined');
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  const me = (await (await page.request.get('/api/user')).json()) as { student: { id: string } };
  const studentId = me.student.id;
  expect((await page.request.put(`/api/student/${studentId}/account`, { data: { grade: 'Grade 11', schoolYearStartMonth: 9 } })).ok()).toBe(
    true,
  );
  const subjects = (await (await page.request.get('/api/subjects')).json()) as { id: string; name: string }[];
  const subjectId = subjects.find((s) => s.name === 'Calculus (Grade 11-12)')?.id as string;
  const packages = (await (await page.request.get('/api/packages')).json()) as {
    id: string;
    sessionCount: number;
    gradeTier: { id: string };
  }[];
  const packageId = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 4)?.id as string;
  const intent = await page.request.post('/api/create-payment-intent', { data: { packageId, subjectId, studentId } });
  expect(intent.status(), await intent.text()).toBe(200);
  const { paymentIntentId, purchaseId } = (await intent.json()) as { paymentIntentId: string; purchaseId: string };
  const declined = await page.request.post(`/api/sandbox/payments/${paymentIntentId}/confirm`, {
    data: { cardNumber: '4000000000000002' },
  });
  expect(declined.status()).toBeLessThan(500);
  await page.close();
  return purchaseId;
}

test('a failed payment raises an alert that an admin resolves with a note', async ({ browser, page }) => {
  const buyer = await browser.newContext();
  const purchaseId = await declinedPurchase(buyer);
  await buyer.close();

  await signIn(page, 'e2e.admin', 'admin-pass-1');
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin?tab=alerts');
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  // The alert names its purchase (subject and student) and links to it; the id is only in the link's tooltip.
  const purchaseLink = (scope: Locator | Page) => scope.locator(`button[title="Purchase ${purchaseId}"]`);
  const row = page.getByTestId('alert-row').filter({ has: purchaseLink(page) });
  // The payment saga records the failure a moment after the decline.
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText('A payment failed');
  await expect(row).toContainText('Your card was declined.');
  await expect(row).toContainText('Purchase Calculus (Grade 11-12) · ');
  await expect(row).not.toContainText(purchaseId);
  await expect(page.getByRole('link', { name: /Alerts \d+ unresolved/ })).toBeVisible();

  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await row.getByRole('button', { name: 'Resolve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve alert' });
  await dialog.getByRole('button', { name: 'Resolve alert' }).click();
  await expect(dialog.getByText('Please say what was done to resolve this alert')).toBeVisible();
  await dialog.getByLabel('What was done').fill('Called the family; they will pay with another card.');
  await dialog.getByRole('button', { name: 'Resolve alert' }).click();
  await expect(page.getByText('Alert resolved', { exact: true })).toBeVisible();
  await expect(row).toHaveCount(0);

  await page.getByLabel('Status').selectOption({ label: 'Resolved' });
  const resolved = page.getByTestId('alert-row').filter({ has: purchaseLink(page) });
  await expect(resolved).toContainText('Resolved');
  await expect(resolved).toContainText('Called the family; they will pay with another card.');

  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

  // The link opens the purchase's history over the tab.
  await purchaseLink(resolved).click();
  await expect(page.getByRole('dialog', { name: 'Purchase history' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`history=purchase(%3A|:)${purchaseId}`));
});
