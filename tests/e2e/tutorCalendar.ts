import { expect, type Locator, type Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';

/** The demo tutor the e2e server seeds in Toronto (weekday hours 16:00–20:00, Saturday 10:00–14:00, none on Sunday). */
export const MAYA = { email: 'maya.tutor@demo.topmark.example', firstName: 'Maya', lastName: 'Okafor', zone: 'America/Toronto' };

/** Signs in through /tutor-login and the dev Google consent page. */
export async function tutorSignIn(page: Page, who: { email: string; firstName: string; lastName: string }) {
  await page.goto('/tutor-login');
  await page.getByLabel('I accept the terms and conditions').check();
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByText('You are signing in as a tutor applicant.')).toBeVisible();
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel(/First name/i).fill(who.firstName);
  await page.getByLabel(/Last name/i).fill(who.lastName);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/dev'), { timeout: 20_000 });
}

/** Waits for `target`, accepting the terms first when the page asks for them. */
export async function throughTerms(page: Page, target: Locator) {
  const accept = page.getByRole('button', { name: 'Accept and Continue' });
  await expect(target.or(accept)).toBeVisible({ timeout: 20_000 });
  if (await accept.isVisible()) {
    await page.getByRole('checkbox').check();
    await accept.click();
  }
  await expect(target).toBeVisible({ timeout: 20_000 });
}

const mondayOf = (date: Temporal.PlainDate) => date.subtract({ days: date.dayOfWeek - 1 });

/** "Sunday, March 8", as the week view names a day. */
export const dayLabel = (date: Temporal.PlainDate) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(date.year, date.month - 1, date.day)),
  );

/** Moves the dashboard's week view, showing this week, on to the week holding `day` (weeks run Monday to Sunday in `zone`). */
export async function showWeekOf(page: Page, day: Temporal.PlainDate, zone: string) {
  const from = mondayOf(Temporal.Now.plainDateISO(zone));
  const weeks = mondayOf(day).since(from, { largestUnit: 'days' }).days / 7;
  for (let i = 0; i < weeks; i++) await page.getByRole('button', { name: 'Next week' }).click();
}
