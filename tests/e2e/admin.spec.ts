import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, type PlaywrightWorkerArgs, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { unique } from './helpers.ts';

/** The ten tabs of the admin sidebar, in the spec's order (part 2 §2). */
const TABS = [
  'Overview',
  'Tutor Applications',
  'Create Tutor',
  'Sessions',
  'Purchases',
  'Payouts',
  'Users',
  'Promo Codes',
  'Alerts',
  'Audit Log',
];

/** Signs in as the e2e admin (tests/e2e/serve.ts) on /admin-login and opens /admin{search}. */
async function signInAdmin(page: Page, search = '') {
  await page.goto('/admin-login');
  await page.getByLabel('Username').fill('e2e.admin');
  await page.getByLabel('Password', { exact: true }).fill('admin-pass-1');
  await page.getByRole('button', { name: /Sign In|Log In|Login/ }).click();
  await expect(page).toHaveURL(/\/admin$/);
  if (search) await page.goto(`/admin${search}`);
}

/** A tutor applies with Google through the dev identity provider, in a browser of their own. */
async function applyAsTutor(browser: Browser, email: string, firstName: string, lastName: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/api/auth/google?userType=tutor');
  await expect(page.getByText('You are signing in as a tutor', { exact: false })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/First name/i).fill(firstName);
  await page.getByLabel(/Last name/i).fill(lastName);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/status=submitted/);
  await context.close();
}

const sections = (page: Page) => page.getByRole('navigation', { name: 'Admin sections' });

test('the admin sees the shell: ten tabs in order, header, counters, the System group, and each tab in the URL', async ({ page }) => {
  await signInAdmin(page);
  await expect(sections(page).getByRole('link')).toHaveText(TABS.map((t) => new RegExp(`^${t}`)));
  await expect(sections(page).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  // Below the ten, the smaller System group (issue 12 §7–§9); Mailbox while mail stays in the outbox.
  await expect(page.getByRole('navigation', { name: 'System' }).getByRole('link')).toHaveText([/^Projections/, /^Jobs/, /^Mailbox/]);
  const user = page.getByTestId('admin-user');
  await expect(user).toContainText('EA');
  await expect(user).toContainText('Erin Admin');
  await expect(user.getByText('Admin', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  for (const counter of ['Total Users', 'Total Students', 'Total Tutors', 'Pending Approvals']) {
    await expect(page.getByText(counter, { exact: true })).toBeVisible();
  }
  await expect(page.getByTestId('counter-totalUsers')).toHaveText(/^\d[\d,]*$/);
  await expect(page.getByRole('heading', { name: 'Recent Activity', level: 2 })).toBeVisible();
  await page.screenshot({ path: '.tmp/admin-shots/overview.png', fullPage: true });

  await sections(page).getByRole('link', { name: 'Sessions' }).click();
  await expect(page).toHaveURL(/tab=sessions/);
  await expect(page.getByRole('heading', { name: /^Sessions( \(\d+\))?$/, level: 2 })).toBeVisible();
});

test('invites a tutor by e-mail (Enter submits, trimmed); an empty address is refused with a toast', async ({ page }) => {
  await signInAdmin(page, '?tab=create-tutor');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Please enter an email address').first()).toBeVisible();

  const field = page.getByLabel('Tutor email');
  await field.fill(`  invited.${unique()}@example.com  `);
  await field.press('Enter');
  await expect(page.getByText('Invitation Sent').first()).toBeVisible();
  await expect(page.getByText('Google sign-in invitation sent. The tutor can sign up with their Google account.').first()).toBeVisible();
  await expect(field).toHaveValue('');
});

test('an applicant appears in Tutor Applications; Deny asks first and removes them; Approve shows the toast and the row leaves', async ({
  page,
  browser,
}) => {
  const id = unique();
  await applyAsTutor(browser, `deny.${id}@example.com`, 'Dana', `Deny${id}`);
  await applyAsTutor(browser, `approve.${id}@example.com`, 'Abe', `Approve${id}`);

  await signInAdmin(page, '?tab=applications');
  const denyRow = page.getByTestId('application-row').filter({ hasText: `Dana Deny${id}` });
  const approveRow = page.getByTestId('application-row').filter({ hasText: `Abe Approve${id}` });
  await expect(denyRow).toBeVisible();
  await expect(denyRow).toContainText(`deny.${id}@example.com`);
  await expect(denyRow).toContainText('Google OAuth');
  await expect(denyRow).toContainText(/ago|just now/);
  await page.screenshot({ path: '.tmp/admin-shots/applications.png', fullPage: true });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  // The search box narrows the table to names and e-mail addresses.
  const search = page.getByLabel('Search applications');
  await search.fill(`approve.${id}`);
  await expect(page.getByTestId('application-row')).toHaveCount(1);
  await expect(approveRow).toBeVisible();
  await search.fill(`nobody-${id}`);
  await expect(page.getByText(`No applications match “nobody-${id}”.`)).toBeVisible();
  await search.fill('');
  await expect(denyRow.getByRole('link', { name: /Email/ })).toHaveAttribute(
    'href',
    `mailto:deny.${id}@example.com?subject=${encodeURIComponent('Topmark Application Update')}`,
  );
  // The sidebar badge counts the pending applications.
  await expect(sections(page).getByRole('link', { name: /Tutor Applications/ })).toContainText(/\d+/);

  await denyRow.getByRole('button', { name: /^Deny / }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(
    "Are you sure you want to deny this application? This will permanently remove the applicant's record.",
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(denyRow).toBeVisible();
  await denyRow.getByRole('button', { name: /^Deny / }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deny application' }).click();
  await expect(page.getByText('Tutor application denied and removed').first()).toBeVisible();
  await expect(denyRow).toHaveCount(0);

  // Approve creates an account: it asks first; Cancel changes nothing.
  await approveRow.getByRole('button', { name: /^Approve / }).click();
  const approveDialog = page.getByRole('alertdialog', { name: `Approve Abe Approve${id}?` });
  await expect(approveDialog).toContainText('creates their tutor account');
  await approveDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(approveRow).toBeVisible();
  await approveRow.getByRole('button', { name: /^Approve / }).click();
  await approveDialog.getByRole('button', { name: 'Approve tutor' }).dblclick();
  await expect(page.getByText('Tutor application approved successfully').first()).toBeVisible();
  await expect(approveRow).toHaveCount(0);
  // A double click approves once: no error toast.
  await expect(page.getByText('Error', { exact: true })).toHaveCount(0);
});

test('Create Tutor lists pending applications with their status and Google mark; Reject and Approve toast', async ({ page, browser }) => {
  const id = unique();
  await applyAsTutor(browser, `reject.${id}@example.com`, 'Rita', `Reject${id}`);
  await applyAsTutor(browser, `onboard.${id}@example.com`, 'Olga', `Onboard${id}`);
  await signInAdmin(page, '?tab=create-tutor');

  const rejectItem = page.getByTestId('pending-tutor').filter({ hasText: `Rita Reject${id}` });
  await expect(rejectItem).toContainText('pending');
  await expect(rejectItem).toContainText('Google account verified');
  await page.screenshot({ path: '.tmp/admin-shots/create-tutor.png', fullPage: true });
  await rejectItem.getByRole('button', { name: /^Reject / }).click();
  await expect(page.getByText('Application Rejected').first()).toBeVisible();
  await expect(rejectItem).toHaveCount(0);

  const approveItem = page.getByTestId('pending-tutor').filter({ hasText: `Olga Onboard${id}` });
  await approveItem.getByRole('button', { name: /^Approve / }).click();
  await page
    .getByRole('alertdialog', { name: `Approve Olga Onboard${id}?` })
    .getByRole('button', { name: 'Approve tutor' })
    .click();
  await expect(page.getByText('Tutor Approved').first()).toBeVisible();
  await expect(page.getByText('The tutor account has been approved and activated.').first()).toBeVisible();
  await expect(approveItem).toHaveCount(0);
});

test('the selected tab lives in the URL: reload and back keep it', async ({ page }) => {
  await signInAdmin(page);
  await sections(page).getByRole('link', { name: 'Create Tutor' }).click();
  await expect(page).toHaveURL(/\?tab=create-tutor/);
  await sections(page)
    .getByRole('link', { name: /Tutor Applications/ })
    .click();
  await expect(page).toHaveURL(/\?tab=applications/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Tutor Applications' })).toBeVisible();
  await expect(sections(page).getByRole('link', { name: /Tutor Applications/ })).toHaveAttribute('aria-current', 'page');
  await page.goBack();
  await expect(page).toHaveURL(/\?tab=create-tutor/);
  await expect(page.getByRole('heading', { level: 1, name: 'Create Tutor' })).toBeVisible();
  await expect(page.getByText('Application Process')).toHaveCount(0);
});

/** A student signs up through the dev Google provider over plain requests (no page): one more Users row. */
async function googleSignUp(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string, n: string) {
  const context = await playwright.request.newContext({ baseURL });
  const consent = await context.get('/api/auth/google?userType=student');
  expect(consent.ok(), await consent.text()).toBe(true);
  const params = new URL(consent.url()).searchParams;
  const done = await context.post('/api/auth/dev/consent', {
    form: {
      state: params.get('state') ?? '',
      userType: 'student',
      code_challenge: params.get('code_challenge') ?? '',
      email: `pager${n}@example.com`,
      firstName: 'Paige',
      lastName: `Turner${n}`,
    },
  });
  expect(done.status(), await done.text()).toBeLessThan(400);
  await context.dispose();
}

test('the page number lives in the URL: a reload and Back keep it (Users; Alerts, Purchases and Sessions share the hook)', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signInAdmin(page);
  const listed = await page.request.get('/api/admin/users?page=1&pageSize=20');
  expect(listed.ok()).toBe(true);
  const { total } = (await listed.json()) as { total: number };
  // Enough accounts for a second page (20 a page).
  for (let i = total; i < 22; i++) await googleSignUp(playwright, baseURL ?? '', `${unique()}${i}`);

  await sections(page).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\?tab=users$/);
  const pages = page.getByRole('navigation', { name: /pages$/ });
  await expect(pages).toContainText(/Page 1 of [2-9]/);
  // Who heads each page, by name (the sign-in column says "just now", then "1 minute ago").
  const firstName = page.getByTestId('user-row').first().locator('td').first();
  const firstOnPage1 = (await firstName.textContent()) ?? '';
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  await expect(pages).toContainText(/Page 2 of/);
  await expect(firstName).not.toHaveText(firstOnPage1);
  const firstOnPage2 = (await firstName.textContent()) ?? '';
  expect(firstOnPage2).not.toBe('');

  await page.reload();
  await expect(pages).toContainText(/Page 2 of/);
  await expect(firstName).toHaveText(firstOnPage2);
  await page.goBack();
  await expect(page).toHaveURL(/\?tab=users$/);
  await expect(pages).toContainText(/Page 1 of/);
  // Another tab starts on its first page.
  await page.goForward();
  await expect(pages).toContainText(/Page 2 of/);
  await sections(page).getByRole('link', { name: 'Sessions' }).click();
  await expect(page).toHaveURL(/\?tab=sessions$/);
});

test('axe finds no serious or critical issues on /admin', async ({ page }) => {
  await signInAdmin(page);
  for (const tab of ['overview', 'applications', 'create-tutor', 'alerts']) {
    await page.goto(`/admin?tab=${tab}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${tab}: ${v.id}`)).toEqual([]);
  }
});

test('at 375 px the console does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signInAdmin(page);
  for (const tab of ['overview', 'applications', 'create-tutor', 'audit-log']) {
    await page.goto(`/admin?tab=${tab}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `.tmp/admin-shots/phone-${tab}.png`, fullPage: true });
  }
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await sections(page).getByRole('link', { name: 'Audit Log' }).scrollIntoViewIfNeeded();
  await expect(sections(page).getByRole('link', { name: 'Audit Log' })).toBeVisible();
});
