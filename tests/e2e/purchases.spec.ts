import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { googleStudent, unique } from './helpers.ts';

/** A new Google-created student (terms accepted) in Grade 11, on the dashboard. */
async function newStudent(page: Page): Promise<string> {
  const n = unique();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await googleStudent(page, `buyer${n}@example.com`, 'Bea', 'Buyer');
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  const me = (await (await page.request.get('/api/user')).json()) as { student: { id: string } };
  const saved = await page.request.put(`/api/student/${me.student.id}/account`, { data: { grade: 'Grade 11', schoolYearStartMonth: 9 } });
  expect(saved.ok()).toBe(true);
  await page.reload();
  return me.student.id;
}

/** A percentage promo code (10% unless told) made by the e2e admin over the API. */
async function percentCode(request: APIRequestContext, percent = 10): Promise<string> {
  const login = await request.post('/api/login', { data: { username: 'e2e.admin', password: 'admin-pass-1' } });
  expect(login.ok()).toBe(true);
  const code = `PCT${percent}${unique().toUpperCase()}`;
  const created = await request.post('/api/admin/promo-codes', {
    data: {
      code,
      description: `${percent}% off`,
      discountType: 'percentage',
      discountValue: String(percent),
      maxUses: null,
      validFrom: null,
      validUntil: null,
    },
  });
  expect(created.status()).toBe(201);
  return code;
}

/** Add Course: Grade 11-12 Calculus, the 8-session package; lands on /checkout. */
async function addCalculus(page: Page) {
  await page.getByRole('button', { name: 'Add Course' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Course' });
  await dialog.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(dialog.getByText('Please choose a grade level')).toBeVisible();
  await dialog.getByLabel('Level').selectOption({ label: 'Grade 11-12' });
  await dialog.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(dialog.getByText('Please select a subject')).toBeVisible();
  await expect(dialog.getByText('Please select a package')).toBeVisible();
  await dialog.getByLabel('Subject').selectOption({ label: 'Calculus (Grade 11-12)' });
  await dialog.getByLabel('Package').selectOption({ index: 2 });
  await expect(dialog.getByLabel('Package').locator('option:checked')).toContainText('8 Sessions');
  await dialog.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole('heading', { name: 'Order Summary' })).toBeVisible();
}

/** Screenshots to look at (UI guide): .tmp/shots/purchases-<name>.png. */
const shot = (page: Page, name: string) => page.screenshot({ path: `.tmp/shots/purchases-${name}.png`, fullPage: true });

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

async function noHorizontalScroll(page: Page) {
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
}

test('a student buys 8 sessions with a 10% code and the test card, chooses Maya, skips the first session, sees the course', async ({
  page,
  request,
}) => {
  const code = await percentCode(request);
  await newStudent(page);
  await expect(page.getByRole('heading', { name: 'My Courses' })).toBeVisible();
  await expect(page.getByText('No courses yet')).toBeVisible();
  await addCalculus(page);

  const summary = page.getByTestId('order-summary');
  await expect(summary).toContainText('Calculus (Grade 11-12)');
  await expect(summary).toContainText('8');
  const total = page.getByTestId('order-total');
  const before = Number((await total.innerText()).replace(/[^0-9.]/g, ''));
  expect(before).toBeGreaterThan(0);
  await axeClean(page);

  // Promo: empty, then a code typed in lower case (uppercased), Enter submits; remove and apply again.
  const promo = page.getByLabel('Promo code');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Please enter a promo code')).toBeVisible();
  await promo.fill(code.toLowerCase());
  await expect(promo).toHaveValue(code);
  await promo.press('Enter');
  await expect(page.getByTestId('promo-applied')).toContainText(code);
  await expect(total).toHaveText(`$${(Math.round(before * 90) / 100).toFixed(2)}`);
  await expect(promo).toHaveAttribute('readonly', '');
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Pricing has been restored to original amount', { exact: true })).toBeVisible();
  await expect(total).toHaveText(`$${before.toFixed(2)}`);
  await promo.fill(code);
  await promo.press('Enter');
  await expect(page.getByTestId('promo-applied')).toBeVisible();
  const discounted = (Math.round(before * 90) / 100).toFixed(2);
  await expect(total).toHaveText(`$${discounted}`);

  await page.getByRole('button', { name: `Pay $${discounted}` }).click();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await shot(page, 'checkout');
  await page.getByRole('button', { name: `Pay $${discounted}` }).click();
  await expect(page.getByText('Payment Successful!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/tutor-selection$/, { timeout: 15_000 });

  // The dashboard meanwhile: the banner and the course awaiting its tutor; its link works without the saved enrollment.
  await page.goto('/student');
  await expect(page.getByTestId('tutor-selection-required')).toContainText('Tutor Selection Required');
  const awaiting = page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' });
  await expect(awaiting).toContainText('Setup Required');
  await expect(awaiting).toContainText('Tutor assignment pending');
  // A string: the tests are type-checked without the DOM's types (tests/e2e/browser.ts).
  await page.evaluate('localStorage.clear()');
  await awaiting.getByRole('link', { name: 'Select a tutor' }).click();
  await expect(page).toHaveURL(/\/tutor-selection$/);

  // Tutor selection: the summary, the search, Maya's card.
  await expect(page.getByRole('heading', { name: 'Select Your Tutor' })).toBeVisible();
  await expect(page.getByTestId('enrollment-summary')).toContainText(`Total paid$${discounted}`);
  const search = page.getByPlaceholder('Search tutors by name or specialization...');
  await search.fill('zzzz');
  await expect(page.getByText('No tutors found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search terms')).toBeVisible();
  await search.fill('MAYA');
  const maya = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Maya/ }) });
  await expect(maya).toHaveCount(1);
  await axeClean(page);
  await search.fill('');
  await shot(page, 'tutor-selection');
  await search.fill('MAYA');
  await maya.getByRole('button', { name: 'Select This Tutor' }).click();
  await expect(page.getByText('Tutor Selected!', { exact: true })).toBeVisible();

  // The first-session step: skip.
  await expect(page).toHaveURL(/\/time-slot-selection$/);
  // Leaving the step: the dashboard offers to finish the setup (the tutor is chosen, the banner is gone).
  await page.goto('/student');
  const chosen = page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' });
  await expect(chosen).toContainText(/Tutor: Maya/);
  await expect(page.getByTestId('tutor-selection-required')).toHaveCount(0);
  await chosen.getByRole('link', { name: 'Finish setup' }).click();
  await expect(page).toHaveURL(/\/time-slot-selection$/);
  await expect(page.getByRole('heading', { name: 'Schedule Your First Session' })).toBeVisible();
  await expect(page.getByText('60-min sessions')).toBeVisible();
  await axeClean(page);
  await shot(page, 'first-session');
  await page.getByRole('button', { name: 'Skip for Now' }).click();
  await expect(page.getByText('Enrollment Complete!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/student$/);

  const course = page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' });
  await expect(course).toContainText('8 remaining');
  await expect(course).toContainText('Active');
  await expect(course).toContainText(/Tutor: Maya/);
  await expect(page.getByTestId('pending-count')).toHaveText('8');
  await expect(page.getByTestId('tutor-selection-required')).toHaveCount(0);
  await axeClean(page);

  await shot(page, 'dashboard');
  await page.setViewportSize({ width: 375, height: 800 });
  await noHorizontalScroll(page);
  await shot(page, 'dashboard-375');
});

test('a declined card shows the provider message and creates no course', async ({ page }) => {
  const studentId = await newStudent(page);
  await addCalculus(page);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.setViewportSize({ width: 375, height: 800 });
  await noHorizontalScroll(page);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByText('Your card was declined.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/checkout$/);
  // The card asking for authentication: the sandbox's check, failed here, buys nothing.
  await page.getByLabel('Card number').fill('4000 0025 0000 3155');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByText('Authentication required')).toBeVisible();
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page.getByText(/unable to authenticate your payment method/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/checkout$/);
  const courses = (await (await page.request.get(`/api/student/${studentId}/courses`)).json()) as unknown[];
  expect(courses).toEqual([]);
  await page.goto('/student');
  await expect(page.getByText('No courses yet')).toBeVisible();
});

test('tutor selection without a saved enrollment says how to start', async ({ page }) => {
  await page.goto('/tutor-selection');
  await expect(page.getByText('No enrollment data found')).toBeVisible();
  await expect(page.getByText('Please start the enrollment process from your dashboard.')).toBeVisible();
  await axeClean(page);
});

test('an anonymous visitor sees the order but must sign in to use a code or pay', async ({ page }) => {
  const [pkg] = (await (await page.request.get('/api/packages')).json()) as {
    id: string;
    name: string;
    sessionCount: number;
    totalPrice: number;
  }[];
  const [subject] = (await (await page.request.get('/api/subjects')).json()) as { id: string; name: string }[];
  if (!pkg || !subject) throw new Error('no catalogue');
  await page.goto('/');
  const pending = {
    packageId: pkg.id,
    studentId: 'nobody',
    subjectId: subject.id,
    subjectInfo: { name: subject.name },
    packageInfo: { name: pkg.name, sessionCount: pkg.sessionCount, totalPrice: pkg.totalPrice },
  };
  await page.evaluate(`localStorage.setItem('pendingEnrollment', ${JSON.stringify(JSON.stringify(pending))})`);
  await page.goto('/checkout');
  await expect(page.getByTestId('order-total')).toHaveText(`$${pkg.totalPrice.toFixed(2)}`);
  await page.getByLabel('Promo code').fill('save10');
  await page.getByLabel('Promo code').press('Enter');
  await expect(page.getByText('You must be logged in to use promo codes')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await axeClean(page);
});

test('a 100% code makes a free purchase that goes to tutor selection after the pause', async ({ page, request }) => {
  const code = await percentCode(request, 100);
  await newStudent(page);
  await addCalculus(page);
  await page.getByLabel('Promo code').fill(code);
  await page.getByLabel('Promo code').press('Enter');
  await expect(page.getByTestId('order-total')).toHaveText('$0.00');
  await page.getByRole('button', { name: 'Complete free enrollment' }).click();
  await expect(page.getByText('Enrollment Successful!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/tutor-selection$/, { timeout: 15_000 });
  await expect(page.getByTestId('enrollment-summary')).toContainText('Total paid$0.00');
  const maya = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Maya/ }) });
  await maya.getByRole('button', { name: 'Select This Tutor' }).click();
  await expect(page).toHaveURL(/\/time-slot-selection$/);
  await page.getByRole('button', { name: 'Book First Session Now' }).click();
  await expect(page.getByText('Enrollment Complete!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' })).toContainText('Active');
});
