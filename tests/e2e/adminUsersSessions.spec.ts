import { type APIRequestContext, type Browser, expect, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { mailedCode, signIn, unique } from './helpers.ts';
import { freeHours, studentWithMaya } from './studentBooking.ts';

/**
 * The console's Users and Sessions tabs (issue 12 §2): an admin finds a user, deactivates them
 * with a reason (their open browser session is refused at once and the sign-in page says why),
 * and reactivates them; an admin cancels a booked session on the family's behalf with a reason,
 * the 12-hour rule's outcome stated before confirming.
 */

/** A verified local student registered over the API (own account, not the demo family's). */
async function registeredStudent(request: APIRequestContext) {
  const n = unique();
  const who = { username: `adminvictim${n}`, email: `adminvictim${n}@example.com`, password: 'victim-pass-1', lastName: `Victim${n}` };
  const registered = await request.post('/api/register', {
    data: {
      username: who.username,
      email: who.email,
      password: who.password,
      firstName: 'Vic',
      lastName: who.lastName,
      role: 'student',
      grade: 'Grade 10',
      isUniversityStudent: false,
      termsAccepted: true,
      termsAcceptedVersion: '1.0',
    },
  });
  expect(registered.status(), await registered.text()).toBeLessThan(300);
  const code = await mailedCode(request, who.email, 'verification code');
  expect((await request.post('/api/verify-email', { data: { email: who.email, code } })).ok()).toBe(true);
  return who;
}

test('an admin finds a user, deactivates them (their open session ends, sign-in says why), and reactivates them', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const victim = await registeredStudent(request);
  const victimContext = await browser.newContext();
  const victimPage = await victimContext.newPage();
  await signIn(victimPage, victim.username, victim.password);
  await expect(victimPage).toHaveURL(/\/student/, { timeout: 15_000 });

  await signIn(page, 'e2e.admin', 'admin-pass-1');
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin?tab=users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await page.getByLabel('Search').fill(victim.lastName);
  const row = page.getByTestId('user-row').filter({ hasText: victim.username });
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: `Deactivate Vic ${victim.lastName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Deactivate Vic ${victim.lastName}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Deactivate account' }).click();
  await expect(dialog.getByText('Please give a reason')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Chargeback fraud reported by the bank');
  await dialog.getByRole('button', { name: 'Deactivate account' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Account deactivated').first()).toBeVisible();
  await expect(row).toContainText('Deactivated');
  await expect(row).toContainText('Chargeback fraud reported by the bank');
  // The dialog's clicks did not open the row's history.
  await expect(page).not.toHaveURL(/history=/);

  // The victim's open session is refused on the next request; signing in says why.
  expect((await victimPage.request.get('/api/user')).status()).toBe(401);
  await victimPage.reload();
  await expect(victimPage).toHaveURL(/\/login/, { timeout: 15_000 });
  await signIn(victimPage, victim.username, victim.password);
  await expect(victimPage.getByText('This account has been deactivated. Please contact support.').first()).toBeVisible();
  await expect(victimPage).toHaveURL(/\/login/);

  await row.getByRole('button', { name: `Reactivate Vic ${victim.lastName}` }).click();
  const back = page.getByRole('dialog', { name: `Reactivate Vic ${victim.lastName}?` });
  await back.getByLabel('Reason').fill('The bank cleared the dispute');
  await back.getByRole('button', { name: 'Reactivate account' }).click();
  await expect(back).toBeHidden();
  await expect(row).toContainText('Active');

  await signIn(victimPage, victim.username, victim.password);
  await expect(victimPage).toHaveURL(/\/student/, { timeout: 15_000 });
  await victimContext.close();

  // A row opens the account's history.
  await row.getByText(`@${victim.username}`).click();
  await expect(page).toHaveURL(/history=user%3A|history=user:/);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/admin?tab=users');
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);
});

/** A new Grade 11 student of their own with an active Calculus course with Maya (free with a 100% code), one session booked days ahead. */
async function bookedSession(browser: Browser, request: APIRequestContext) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const who = await studentWithMaya(page, request, true, { firstName: 'Cal', lastName: 'Cancel', emailPrefix: 'cancelme' });
  const api = page.request;
  // From two days ahead: well over the 12 hours' notice, so the rule returns the credit.
  const {
    starts: [start],
  } = await freeHours(api, who.tutor.id, { fromDays: 2, zone: 'America/Toronto', count: 1 });
  const booked = await api.post('/api/book-session', {
    data: { tutorId: who.tutor.id, studentCourseId: who.courseId, date: start, duration: 60, notes: 'Chain rule' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const session = (await booked.json()) as { id: string };
  const remaining = async () =>
    ((await (await api.get(`/api/student/${who.studentId}/courses`)).json()) as { sessionsRemaining: number }[])[0]?.sessionsRemaining;
  return { sessionId: session.id, studentName: who.name, remaining, close: () => context.close() };
}

test('an admin cancels a booked session with a reason; the 12-hour rule returns the credit', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const booking = await bookedSession(browser, request);
  expect(await booking.remaining()).toBe(3);

  await signIn(page, 'e2e.admin', 'admin-pass-1');
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin?tab=sessions');
  await expect(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  await page.getByLabel('Search').fill(booking.studentName);
  const row = page.getByTestId('session-row').filter({ hasText: booking.studentName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Maya Okafor');
  await expect(row).toContainText('Calculus');
  await expect(row).toContainText('Scheduled');
  // From and To bound each other's pickers; a range the session is outside of hides it.
  const from = page.getByLabel('From', { exact: true });
  const to = page.getByLabel('To', { exact: true });
  await from.fill('2099-01-01');
  await expect(row).toHaveCount(0);
  await expect(to).toHaveAttribute('min', '2099-01-01');
  await to.fill('2099-12-31');
  await expect(from).toHaveAttribute('max', '2099-12-31');
  await from.fill('');
  await to.fill('');
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: /Cancel the session/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this session?' });
  await expect(dialog).toContainText('under the 12-hour rule the credit is returned to the course');
  await expect(dialog.getByLabel(/Apply the 12-hour rule/)).toBeChecked();
  await dialog.getByLabel('Reason').fill('Tutor is ill');
  await dialog.getByRole('button', { name: 'Cancel and return the credit' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Session cancelled').first()).toBeVisible();
  await expect(row).toContainText('Cancelled');
  await expect(row).toContainText('Credit returned');
  await expect(row.getByRole('button', { name: /Cancel the session/ })).toHaveCount(0);
  await expect.poll(booking.remaining, { timeout: 10_000 }).toBe(4);
  await booking.close();

  // Cancelling it again is refused by the server.
  const again = await page.request.post(`/api/admin/sessions/${booking.sessionId}/cancel`, { data: { reason: 'again' } });
  expect(again.status()).toBe(409);

  // The row opens the session's history.
  await row.getByText('Maya Okafor').first().click();
  await expect(page).not.toHaveURL(/history=/);
  await row.locator('time').first().click();
  await expect(page).toHaveURL(new RegExp(`history=session(%3A|:)${booking.sessionId}`));

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/admin?tab=sessions');
  await expect(page.getByTestId('session-row').first()).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);
});
