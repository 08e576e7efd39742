import { existsSync, readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { Sql } from '../../src/adapters/db/db.ts';
import { connect } from '../../src/adapters/db/db.ts';
import { PostgresEventStore } from '../../src/adapters/eventstore/postgres/postgresEventStore.ts';
import { courseHandlers } from '../../src/commands/courses/courseHandlers.ts';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import { adminUrl } from '../support/database.ts';
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
  await expect(course).toContainText('8 left');
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
  // A subject a tutor teaches: the checkout sells nothing else (issue 24).
  const [subject] = (await (await page.request.get('/api/subjects/with-tutors')).json()) as { id: string; name: string }[];
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
  // "Book First Session Now" opens the booking dialog (tests/e2e/booking.spec.ts); skipping starts the course at once.
  await page.getByRole('button', { name: 'Skip for Now' }).click();
  await expect(page.getByText('Enrollment Complete!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' })).toContainText('Active');
});

// --- Repurchase and End Course (spec part 2 §4): a course whose sessions are all used ----------

/**
 * The e2e server's database (serve.ts makes a fresh `topmark_e2e_*` one per run, on the local
 * PostgreSQL or, without one, on the embedded server it starts in .tmp/e2e-pg): the one whose log
 * holds the course. The test uses the course ledger's commands there to use up the credits, as
 * completed sessions do.
 */
async function e2eDatabaseOf(courseId: string): Promise<Sql> {
  const servers = [adminUrl()];
  if (existsSync('.tmp/e2e-pg/pg.port')) {
    servers.push(`postgres://postgres:topmark@127.0.0.1:${readFileSync('.tmp/e2e-pg/pg.port', 'utf8').trim()}/postgres`);
  }
  for (const server of servers) {
    const admin = connect(server, { max: 1 });
    try {
      const names = await admin<{ datname: string }[]>`
        SELECT datname FROM pg_database WHERE datname LIKE 'topmark_e2e_%' ORDER BY oid DESC`.catch(() => []);
      for (const { datname } of names) {
        const url = new URL(server);
        url.pathname = `/${datname}`;
        const sql = connect(url.toString(), { max: 2 });
        const found = await sql`SELECT 1 FROM es_events WHERE stream_id = ${`course-${courseId}`} LIMIT 1`.catch(() => []);
        if (found.length > 0) return sql;
        await sql.end({ timeout: 1 });
      }
    } finally {
      await admin.end({ timeout: 1 });
    }
  }
  throw new Error(`no e2e database holds course ${courseId}`);
}

/**
 * A Grade 11 student (signed in on `page`) with an active Calculus course of 4 sessions, all used:
 * bought free with a 100% code over the API, Maya chosen, the course started, then its 4 credits
 * reserved and consumed through the course ledger's commands. Answers the course id.
 */
async function usedUpCourse(page: Page, request: APIRequestContext): Promise<string> {
  const code = await percentCode(request, 100);
  const studentId = await newStudent(page);
  const api = page.request;
  const me = (await (await api.get('/api/user')).json()) as { id: string };
  const subjects = (await (await api.get('/api/subjects')).json()) as { id: string; name: string }[];
  const calculus = subjects.find((s) => s.name === 'Calculus (Grade 11-12)')!;
  const packages = (await (await api.get('/api/packages')).json()) as { id: string; sessionCount: number; gradeTier: { id: string } }[];
  const four = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 4)!;
  const quote = (await (await api.post('/api/promo-codes/validate', { data: { code, packageId: four.id, userId: me.id } })).json()) as {
    promoCode: { id: string };
    originalPrice: number;
    discountAmount: number;
  };
  const bought = await api.post('/api/create-payment-intent', {
    data: {
      amount: 0,
      packageId: four.id,
      subjectId: calculus.id,
      studentId,
      promoCodeId: quote.promoCode.id,
      originalAmount: quote.originalPrice,
      discountAmount: quote.discountAmount,
      finalAmount: 0,
    },
  });
  expect(bought.status(), await bought.text()).toBe(200);
  // The fulfilment creates the course after the answer.
  await expect
    .poll(async () => ((await (await api.get(`/api/student/${studentId}/courses`)).json()) as unknown[]).length, { timeout: 15_000 })
    .toBe(1);
  const tutors = (await (await api.get(`/api/tutors?subjectId=${calculus.id}`)).json()) as { id: string; user: { firstName: string } }[];
  const maya = tutors.find((t) => t.user.firstName === 'Maya')!;
  const chosen = await api.patch(`/api/student-courses/${studentId}/${calculus.id}`, { data: { tutorId: maya.id, status: 'enrolled' } });
  expect(chosen.status(), await chosen.text()).toBe(200);
  const started = await api.patch(`/api/student-courses/${studentId}/${calculus.id}`, { data: { status: 'active' } });
  const course = (await started.json()) as { id: string; sessionsRemaining: number };
  expect(course.sessionsRemaining).toBe(4);

  const sql = await e2eDatabaseOf(course.id);
  try {
    const ledger = courseHandlers(new PostgresEventStore(sql)).courses;
    for (let i = 0; i < 4; i++) {
      const sessionId = `e2e-session-${i}`;
      await ledger.handle(
        course.id,
        { type: 'ReserveCredit', data: { courseId: course.id, sessionId } },
        commandContext({ now: new Date() }),
      );
      await ledger.handle(
        course.id,
        { type: 'ConsumeCredit', data: { courseId: course.id, sessionId } },
        commandContext({ now: new Date() }),
      );
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
  await expect
    .poll(
      async () =>
        ((await (await api.get(`/api/student/${studentId}/courses`)).json()) as { sessionsRemaining: number }[])[0]?.sessionsRemaining,
      {
        timeout: 15_000,
      },
    )
    .toBe(0);
  await page.reload();
  return course.id;
}

test('a student whose course has no sessions left repurchases 4 on the sandbox’s hosted checkout and sees 4 remaining', async ({
  page,
  request,
}) => {
  await usedUpCourse(page, request);
  const row = page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' });
  await expect(row.getByTestId('sessions-remaining')).toHaveText('0 left');
  await expect(row.getByRole('button', { name: 'End Course' })).toBeVisible();
  await row.getByRole('button', { name: 'Repurchase' }).click();
  const dialog = page.getByRole('dialog', { name: /Repurchase Calculus/ });
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(dialog.getByText('Please select a package')).toBeVisible();
  // Only the course's tier, in 4, 8 and 12 sessions.
  await expect(dialog.getByLabel('Package').locator('option')).toHaveCount(4);
  await dialog.getByLabel('Package').selectOption({ index: 1 });
  await expect(dialog.getByLabel('Package').locator('option:checked')).toContainText('4 sessions');
  await dialog.getByLabel('Promo code').press('Enter');
  await expect(dialog.getByText('Please enter a promo code')).toBeVisible();
  await axeClean(page);
  await shot(page, 'repurchase-dialog');
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();

  // The sandbox's hosted checkout page: a declined card first, then the good one.
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sbx_/);
  await expect(page.getByRole('heading', { name: 'Secure checkout' })).toBeVisible();
  await expect(page.getByTestId('sandbox-order')).toContainText('Calculus (Grade 11-12): Grade 11-12 - 4 Sessions');
  await axeClean(page);
  await noHorizontalScroll(page);
  await shot(page, 'repurchase-hosted-checkout');
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay / }).click();

  // Back on checkout: verified, then the dashboard with the new credits.
  await expect(page).toHaveURL(/\/checkout\?repurchase=true&session_id=cs_sbx_/);
  await expect(page.getByTestId('repurchase-processed')).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  const renewed = page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' });
  await expect(renewed.getByTestId('sessions-remaining')).toHaveText('4 left');
  await expect(renewed.getByRole('button', { name: 'Repurchase' })).toHaveCount(0);
  await shot(page, 'repurchase-done');
});

test('a cancelled hosted checkout says nothing was charged; End Course ends a used-up course', async ({ page, request }) => {
  await usedUpCourse(page, request);
  const row = page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' });
  await row.getByRole('button', { name: 'Repurchase' }).click();
  const dialog = page.getByRole('dialog', { name: /Repurchase Calculus/ });
  await dialog.getByLabel('Package').selectOption({ index: 2 });
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/checkout\?repurchase=true&cancelled=true/);
  await expect(page.getByTestId('repurchase-cancelled')).toContainText('nothing was charged');
  await page.getByRole('link', { name: 'Back to dashboard' }).last().click();
  await expect(page).toHaveURL(/\/student$/);

  const again = page.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' });
  await again.getByRole('button', { name: 'End Course' }).click();
  const confirm = page.getByRole('alertdialog', { name: /End Calculus/ });
  await confirm.getByRole('button', { name: 'Keep Course' }).click();
  await expect(again.getByText('Active', { exact: true })).toBeVisible();
  await again.getByRole('button', { name: 'End Course' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'End Course' }).click();
  await expect(page.getByText('Course Ended', { exact: true })).toBeVisible();
  await expect(again.getByText('Inactive', { exact: true })).toBeVisible();
  await expect(again.getByRole('button', { name: 'End Course' })).toHaveCount(0);
  await expect(again.getByRole('button', { name: 'Repurchase' })).toHaveCount(0);
});

test('a checkout link naming the package, subject and student opens its order summary', async ({ page }) => {
  const studentId = await newStudent(page);
  const subjects = (await (await page.request.get('/api/subjects')).json()) as { id: string; name: string }[];
  const subject = subjects.find((s) => s.name === 'Calculus (Grade 11-12)') as { id: string };
  const packages = (await (await page.request.get('/api/packages')).json()) as {
    id: string;
    sessionCount: number;
    gradeTier: { id: string };
  }[];
  const pkg = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 4) as { id: string };
  await page.goto(`/checkout?package_id=${pkg.id}&subject_id=${subject.id}&student_id=${studentId}`);
  const summary = page.getByTestId('order-summary');
  await expect(summary).toContainText('Calculus (Grade 11-12)');
  await expect(summary).toContainText('4');
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeVisible();
  // A link to an unknown package says how to start instead.
  await page.goto(`/checkout?package=unknown&subject=${subject.id}&student=${studentId}`);
  await expect(page.getByText('No enrollment data found')).toBeVisible();
});
