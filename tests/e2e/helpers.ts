import { type APIRequestContext, expect, type Page } from '@playwright/test';

/** The newest code mailed to `to`, read from the dev mailbox the outbox mailer keeps. */
export async function mailedCode(request: APIRequestContext, to: string, subject: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const res = await request.get('/api/dev/mailbox');
    const { mails } = (await res.json()) as { mails: { to: string; subject: string; text: string }[] };
    const code = mails.find((m) => m.to === to && m.subject.includes(subject))?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${subject} for ${to}`);
}

export const unique = () => Math.random().toString(36).slice(2, 8);

/** Signs in on /login with a username (or e-mail, or a view-only username) and password. */
export async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs out from a dashboard and waits for the home page. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** A new student through the dev Google consent page (no Google credentials on test servers). */
export async function googleStudent(page: Page, email: string, firstName: string, lastName: string) {
  await expect(page.getByText('You are signing in as a student.')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/First name/i).fill(firstName);
  await page.getByLabel(/Last name/i).fill(lastName);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Moves the e2e server's clock to `at` (null: back to the real time) through the loopback port
 * tests/e2e/movableClock.ts listens on; pair it with `page.clock` so the browser agrees.
 */
export async function moveServerClock(request: APIRequestContext, at: Date | null): Promise<void> {
  const port = Number(process.env.E2E_PORT ?? 3199) + 1;
  const res = await request.post(`http://127.0.0.1:${port}/clock`, { data: { at: at?.toISOString() ?? null } });
  expect(res.ok()).toBe(true);
}
