import { expect, type Page, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { demoAccount } from './demoAccounts.ts';
import { googleStudent, mailedCode, signIn, signOut, unique } from './helpers.ts';

// A browser zone other than the accounts' stored America/New_York: account holders sync it on
// sign-in (PATCH /api/user/timezone); a view-only login must not try.
test.use({ timezoneId: 'Europe/Paris' });

/** Counts PATCH /api/user/timezone requests (and their statuses) made by the page. */
function watchTimezonePatches(page: Page) {
  const statuses: number[] = [];
  page.on('response', (res) => {
    if (res.request().method() === 'PATCH' && new URL(res.url()).pathname === '/api/user/timezone') statuses.push(res.status());
  });
  return statuses;
}

async function openStudentRow(page: Page) {
  const row = page.getByTestId('parent-student').filter({ hasText: 'Sam Student' });
  await expect(row).toBeVisible();
  return row;
}

async function fillSecondaryLogin(page: Page, username: string, password: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('View-only username').fill(username);
  await dialog.getByLabel(/^(New password|Password)$/).fill(password);
  await dialog.getByRole('button', { name: 'Save view-only login' }).click();
  await expect(dialog).toBeHidden();
}

test('a parent creates, then renames and resets, the view-only login of their student, who signs in with it', async ({ page }) => {
  const parent = demoAccount('parent');
  const patches = watchTimezonePatches(page);
  await signIn(page, parent.username, parent.password);
  await expect(page).toHaveURL(/\/parent$/);
  await expect.poll(() => patches.length, { message: 'the parent syncs the browser zone' }).toBeGreaterThan(0);

  // Create.
  const n = unique();
  const first = `sam.view.${n}`;
  let row = await openStudentRow(page);
  await expect(row.getByText('No view-only login')).toBeVisible();
  await row.getByRole('button', { name: 'Create the view-only login of Sam Student' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Create a view-only login for Sam' })).toBeVisible();
  // The server's rules, next to the fields.
  await dialog.getByLabel('View-only username').fill('ab');
  await dialog.getByLabel('Password', { exact: true }).fill('123');
  await dialog.getByRole('button', { name: 'Save view-only login' }).click();
  await expect(dialog.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(dialog.getByText('Password must be at least 6 characters long')).toBeVisible();
  // A username someone already has.
  await dialog.getByLabel('View-only username').fill(parent.username);
  await dialog.getByLabel('Password', { exact: true }).fill('view-pass-1');
  await dialog.getByRole('button', { name: 'Save view-only login' }).click();
  await expect(dialog.getByText('This username is taken. Please choose another.')).toBeVisible();
  await fillSecondaryLogin(page, first, 'view-pass-1');
  await expect(page.getByText('View-only login created').first()).toBeVisible();
  row = await openStudentRow(page);
  await expect(row.getByText(/View-only login/)).toBeVisible();
  await expect(row.getByRole('button', { name: 'Change the view-only login of Sam Student' })).toBeVisible();
  await signOut(page);

  // The view-only login opens Sam's dashboard, read-only, without touching the time zone.
  patches.length = 0;
  await signIn(page, first, 'view-pass-1');
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByTestId('view-only-badge')).toBeVisible();
  await expect(page.getByText('Welcome, Sam')).toBeVisible();
  await expect(page.getByText('Set by the main student account')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('view-only-badge')).toBeVisible();
  await page.waitForTimeout(500);
  expect(patches, 'no PATCH /api/user/timezone from a view-only login').toEqual([]);
  await signOut(page);

  // Rename and reset: both change at once; the old pair stops working.
  await signIn(page, parent.username, parent.password);
  await expect(page).toHaveURL(/\/parent$/);
  row = await openStudentRow(page);
  await row.getByRole('button', { name: 'Change the view-only login of Sam Student' }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: "Change Sam's view-only login" })).toBeVisible();
  const second = `sam.view2.${n}`;
  await fillSecondaryLogin(page, second, 'view-pass-2');
  await expect(page.getByText('View-only login updated').first()).toBeVisible();
  await signOut(page);

  await signIn(page, first, 'view-pass-1');
  await expect(page.getByText('Invalid username or password').first()).toBeVisible();
  await signIn(page, second, 'view-pass-2');
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByTestId('view-only-badge')).toBeVisible();
});

test("a failed sign-in's red toast is gone once a later sign-in succeeds", async ({ page }) => {
  const student = demoAccount('student');
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(student.username);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const failure = page.getByText('Login failed');
  await expect(failure.first()).toBeVisible();
  // Same page, no reload: correct the password and sign in.
  await page.getByLabel('Password', { exact: true }).fill(student.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByText('Welcome, Sam')).toBeVisible();
  await expect(failure).toHaveCount(0);
});

test('students sign in with Google from /login; a returning Google student goes straight to the dashboard', async ({ page }) => {
  const n = unique();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await googleStudent(page, `gstudent${n}@example.com`, 'Gwen', 'Google');
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  await expect(page.getByText('Welcome, Gwen')).toBeVisible();
  await signOut(page);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await googleStudent(page, `gstudent${n}@example.com`, '', '');
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByText('Welcome, Gwen')).toBeVisible();
});

/** A Google-created student on the dashboard, terms accepted, grade not set. */
async function newGoogleStudent(page: Page) {
  const n = unique();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await googleStudent(page, `ggrade${n}@example.com`, 'Gus', 'Grade');
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
}

const gradeFact = (page: Page) =>
  page
    .getByRole('term')
    .filter({ hasText: /^Grade$/ })
    .locator('xpath=following-sibling::dd[1]');

async function setGradeThroughDialog(page: Page) {
  await expect(page.getByTestId('grade-prompt')).toBeVisible();
  await expect(gradeFact(page)).toHaveText('Not set');
  await page.getByRole('button', { name: 'Set your grade' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Grade').locator('option')).toHaveText([
    'Select a grade',
    'Grade 6',
    'Grade 7',
    'Grade 8',
    'Grade 9',
    'Grade 10',
    'Grade 11',
    'Grade 12',
    'University/College',
  ]);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Grade and school year start month are required')).toBeVisible();
  await dialog.getByLabel('Grade').selectOption('Grade 8');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Grade and school year start month are required')).toBeVisible();
  await dialog.getByLabel('School year start month').selectOption('September');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Account updated').first()).toBeVisible();
  await expect(page.getByTestId('grade-prompt')).toHaveCount(0);
  await expect(gradeFact(page)).toHaveText('Grade 8');
  await expect(page.getByText('September')).toBeVisible();
}

test('a Google-created student is asked for the grade and sets it in the Account dialog (UI against a stand-in answer)', async ({
  page,
}) => {
  await newGoogleStudent(page);
  const bodies: unknown[] = [];
  await page.route('**/api/student/*/account', async (route) => {
    const body = route.request().postDataJSON() as { grade: string; schoolYearStartMonth: number };
    bodies.push({ method: route.request().method(), body });
    const studentId = new URL(route.request().url()).pathname.split('/')[3];
    await route.fulfill({ json: { id: studentId, grade: body.grade, schoolYearStartMonth: body.schoolYearStartMonth } });
  });
  await setGradeThroughDialog(page);
  expect(bodies).toEqual([{ method: 'PUT', body: { grade: 'Grade 8', schoolYearStartMonth: 9 } }]);
});

test('a Google-created student sets the grade on the server and keeps it', async ({ page, request }) => {
  const probe = await request.put('/api/student/none/account', { data: {} });
  // Anonymous: 401 once the route exists; 404 ("Not found") while it does not.
  test.skip(probe.status() === 404, 'PUT /api/student/{studentId}/account is not on the server yet');
  await newGoogleStudent(page);
  await setGradeThroughDialog(page);
  await page.reload();
  await expect(gradeFact(page)).toHaveText('Grade 8');
  await expect(page.getByTestId('grade-prompt')).toHaveCount(0);
});

test('"Sign up free" opens the Sign Up tab', async ({ page }) => {
  for (const path of ['/', '/pricing', '/about']) {
    await page.goto(path);
    await page.getByRole('link', { name: 'Sign up free' }).click();
    await expect(page).toHaveURL(/\/login\?tab=signup$/);
    await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  }
  // The Sign In tab stays the default for every other way in.
  await page.goto('/login');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
});

test('the dev mailbox is readable on a 375 px phone', async ({ page, request }) => {
  await request.post('/api/auth/request-password-reset', { data: { email: 'parent@demo.topmark.example' } });
  // The mail goes out from a background job: wait until the mailbox has it.
  await mailedCode(request, 'parent@demo.topmark.example', 'password reset code');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/dev/mailbox');
  const mail = page.getByRole('listitem').filter({ hasText: 'parent@demo.topmark.example' }).first();
  await expect(mail).toBeVisible();
  await expect(mail.getByRole('heading')).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});
