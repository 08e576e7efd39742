import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { googleStudent, signIn, unique } from './helpers.ts';

/**
 * A student of this spec's own (a new Google account, Grade 11) buys the 8-session Calculus package
 * over the API with the sandbox's test card, as checkout does. Answers the purchase and student.
 */
async function paidPurchase(context: BrowserContext, lastName: string) {
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await googleStudent(page, `refund${unique()}@example.com`, 'Remy', lastName);
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  const api = page.request;
  const me = (await (await api.get('/api/user')).json()) as { student: { id: string } };
  const studentId = me.student.id;
  expect((await api.put(`/api/student/${studentId}/account`, { data: { grade: 'Grade 11', schoolYearStartMonth: 9 } })).ok()).toBe(true);
  const subjects = (await (await api.get('/api/subjects')).json()) as { id: string; name: string }[];
  const subjectId = subjects.find((s) => s.name === 'Calculus (Grade 11-12)')?.id as string;
  const packages = (await (await api.get('/api/packages')).json()) as { id: string; sessionCount: number; gradeTier: { id: string } }[];
  const packageId = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 8)?.id as string;
  const intent = await api.post('/api/create-payment-intent', { data: { packageId, subjectId, studentId } });
  expect(intent.status(), await intent.text()).toBe(200);
  const { paymentIntentId, purchaseId, amount } = (await intent.json()) as { paymentIntentId: string; purchaseId: string; amount: number };
  const paid = await api.post(`/api/sandbox/payments/${paymentIntentId}/confirm`, { data: { cardNumber: '4242424242424242' } });
  expect(await paid.json()).toMatchObject({ status: 'succeeded' });
  const confirmed = await api.post('/api/confirm-payment', { data: { paymentIntentId, packageId, subjectId, studentId } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const remaining = async () =>
    ((await (await api.get(`/api/student/${studentId}/courses`)).json()) as { sessionsRemaining: number }[])[0]?.sessionsRemaining;
  await expect.poll(remaining, { timeout: 15_000 }).toBe(8);
  return { page, purchaseId, amount, remaining };
}

test('an admin refunds a purchase: the row shows Refunded and the student has no sessions left', async ({ browser, page }) => {
  const lastName = `Refund${unique()}`;
  const buyer = await browser.newContext();
  const bought = await paidPurchase(buyer, lastName);

  await signIn(page, 'e2e.admin', 'admin-pass-1');
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin?tab=purchases');
  await expect(page.getByRole('heading', { name: 'Purchases', level: 1 })).toBeVisible();
  await page.getByLabel('Search').fill(lastName);
  const row = page.getByTestId('purchase-row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('purchase-status')).toHaveText('Completed');
  await expect(row.getByTestId('purchase-sessions')).toHaveText('0 used · 0 booked · 8 left');
  await expect(row).toContainText(`$${bought.amount.toFixed(2)}`);

  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await row.getByRole('button', { name: /Refund/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund purchase' });
  await expect(dialog.getByTestId('refund-quote')).toContainText(`$${bought.amount.toFixed(2)} back to the payer and 8 unused`);
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(dialog.getByText('Please give a reason for the refund')).toBeVisible();
  await dialog.getByLabel('Reason').fill('The family moved away before the first session.');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(page.getByText('Purchase refunded', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByTestId('purchase-status')).toHaveText('Refunded');
  await expect(row.getByTestId('purchase-sessions')).toHaveText('0 used · 0 booked · 0 left');
  await expect(row.getByRole('button', { name: /Refund/ })).toHaveCount(0);

  // The student's own course has nothing left to book.
  await expect.poll(bought.remaining, { timeout: 10_000 }).toBe(0);
  await buyer.close();

  // Filtered by status, the refunded purchase is there; a click opens its history.
  await page.getByLabel('Status').selectOption({ label: 'Refunded' });
  await expect(page.getByTestId('purchase-row').filter({ hasText: lastName })).toHaveCount(1);
  await page.getByTestId('purchase-row').filter({ hasText: lastName }).getByTestId('purchase-sessions').click();
  await expect(page).toHaveURL(new RegExp(`history=purchase(%3A|:)${bought.purchaseId}`));

  await page.goto('/admin?tab=purchases');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId('purchase-row').first()).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});
