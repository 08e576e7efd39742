import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';
import { demoAccount } from './demoAccounts.ts';
import { googleStudent, signIn, signOut, unique } from './helpers.ts';

/** A new Google-created student (terms accepted) in Grade 11, on the dashboard; answers their student id and e-mail. */
async function newStudent(page: Page, firstName: string): Promise<{ studentId: string; email: string }> {
  const email = `dash${unique()}@example.com`;
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await googleStudent(page, email, firstName, 'Dash');
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  const me = (await (await page.request.get('/api/user')).json()) as { student: { id: string } };
  const saved = await page.request.put(`/api/student/${me.student.id}/account`, { data: { grade: 'Grade 11', schoolYearStartMonth: 9 } });
  expect(saved.ok()).toBe(true);
  await page.reload();
  return { studentId: me.student.id, email };
}

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

const shot = (page: Page, name: string) => page.screenshot({ path: `.tmp/shots/dashboards-${name}.png`, fullPage: true });

test('a parent buys a package for their student, follows the course on /parent and opens the student info page', async ({ page }) => {
  const parent = demoAccount('parent');
  await signIn(page, parent.username, parent.password);
  await expect(page).toHaveURL(/\/parent$/);
  const sam = page.getByTestId('parent-student').filter({ hasText: 'Sam Student' });
  await expect(sam).toBeVisible();
  await expect(sam.getByText('Grade 11', { exact: true })).toBeVisible();
  // Other browser tests use the demo parent too (the booking test books Advanced Functions for Sam): no Calculus yet.
  await expect(sam.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' })).toHaveCount(0);

  // Buy a package for Sam: the Add Course flow with Sam's grade, checkout with the sandbox card.
  await sam.getByRole('button', { name: 'Buy a package' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Course' });
  await dialog.getByLabel('Level').selectOption({ label: 'Grade 11-12' });
  await dialog.getByLabel('Subject').selectOption({ label: 'Calculus (Grade 11-12)' });
  await dialog.getByLabel('Package').selectOption({ index: 2 });
  await expect(dialog.getByLabel('Package').locator('option:checked')).toContainText('8 Sessions');
  await dialog.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByTestId('order-summary')).toContainText('Calculus (Grade 11-12)');
  const total = (await page.getByTestId('order-total').innerText()).trim();
  await page.getByRole('button', { name: `Pay ${total}` }).click();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: `Pay ${total}` }).click();
  await expect(page.getByText('Payment Successful!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/tutor-selection$/, { timeout: 15_000 });

  // The parent chooses Maya and skips the first session: the journey ends on the parent's own dashboard.
  const maya = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Maya/ }) });
  await maya.getByRole('button', { name: 'Select This Tutor' }).click();
  await expect(page).toHaveURL(/\/time-slot-selection$/);
  await page.getByRole('button', { name: 'Skip for Now' }).click();
  await expect(page).toHaveURL(/\/parent$/);

  const course = sam.getByRole('listitem', { name: 'Course Calculus (Grade 11-12)' });
  await expect(course).toContainText('Tutor: Maya');
  await expect(course.getByTestId('course-remaining')).toHaveText('8');
  await expect(course.getByTestId('course-used')).toHaveText('0');
  await expect(course.getByTestId('course-booked')).toHaveText('0');
  await axeClean(page);
  await shot(page, 'parent');
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The student info page: the student, the course's progress, the package; back to /parent.
  await sam.getByRole('link', { name: 'View progress' }).click();
  await expect(page).toHaveURL(/\/student-info\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Sam Student' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Academic progress' })).toBeVisible();
  const progress = page.getByTestId('progress-row').filter({ hasText: 'Calculus (Grade 11-12)' });
  await expect(progress).toContainText('Tutor: Maya');
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '8');
  await expect(page.getByRole('table')).toContainText(total);
  await expect(page.getByText('No sessions yet.')).toBeVisible();
  await axeClean(page);
  await shot(page, 'student-info');
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, 'student-info-375');
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('link', { name: 'Parent dashboard' }).click();
  await expect(page).toHaveURL(/\/parent$/);

  // Someone else's student: the page says it could not fetch them.
  await page.goto('/student-info/not-a-student');
  await expect(page.getByText('Failed to fetch student information')).toBeVisible();
});

test('a student sends a help message from the dashboard and sees the success toast; support gets it', async ({ page }) => {
  await newStudent(page, 'Hana');
  await page.getByRole('button', { name: 'Help' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact support' });
  await dialog.getByRole('button', { name: 'Send message' }).click();
  await expect(dialog.getByText('Subject and message are required')).toHaveCount(2);
  const subject = `Booking question ${unique()}`;
  await dialog.getByLabel('Subject').fill(subject);
  await dialog.getByLabel('Message').fill('How do I book my first session?');
  await axeClean(page);
  await dialog.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Message sent', { exact: true })).toBeVisible();
  await expect(page.getByText('Our support team will reply within 24 hours.', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  // The contact saga mails support (the dev mailbox opens the sealed copy).
  await expect
    .poll(async () => {
      const { mails } = (await (await page.request.get('/api/dev/mailbox')).json()) as { mails: { subject: string }[] };
      return mails.some((m) => m.subject === `Help request: ${subject}`);
    })
    .toBe(true);
});

test('a view-only login sees "Progress Tracking Only" and no purchase buttons', async ({ page }) => {
  const { studentId } = await newStudent(page, 'Vic');
  const username = `vic.view.${unique()}`;
  const created = await page.request.post('/api/student/secondary-login', {
    data: { studentId, secondaryUsername: username, password: 'view-pass-1' },
  });
  expect(created.ok()).toBe(true);
  await signOut(page);

  await signIn(page, username, 'view-pass-1');
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByTestId('view-only-badge')).toHaveText('View Only');
  await expect(page.getByText('Progress Tracking Only', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'My Courses' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Course' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Buy a package' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Account' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete Account' })).toHaveCount(0);
  await expect(page.getByTestId('time-zone-card')).toHaveCount(0);
  // The server refuses what the page does not offer.
  const refused = await page.request.post('/api/create-payment-intent', { data: { amount: 1, packageId: 'x', subjectId: 'x', studentId } });
  expect(refused.status()).toBe(403);
  await axeClean(page);
  await shot(page, 'view-only');
});

test.describe('a browser in London', () => {
  test.use({ timezoneId: 'Europe/London' });

  test('a student chooses a time zone that later sign-ins keep, then follows the device again (issue 24)', async ({ page }) => {
    await newStudent(page, 'Zoe');
    const card = page.getByTestId('time-zone-card');
    const zoneFact = page.locator('dd').filter({ hasText: /Asia\/Tokyo|Europe\/London/ });
    // Signing in synced the browser's zone.
    await expect(card.getByTestId('time-zone-in-force')).toContainText('Times are shown in London time');
    await expect(card.getByRole('button', { name: /Use this device's time zone/ })).toHaveCount(0);

    await card.getByLabel('Show times in').selectOption('Asia/Tokyo');
    await card.getByRole('button', { name: 'Save time zone' }).click();
    await expect(page.getByText('Time zone saved', { exact: true })).toBeVisible();
    await expect(card.getByTestId('time-zone-in-force')).toContainText('Times are shown in Tokyo time, the zone you chose');
    // The cached user changed: the rest of the page shows the new zone without a reload.
    await expect(zoneFact).toHaveText('Tokyo (Asia/Tokyo)');

    // A new page load runs the sign-in sync again: the chosen zone stays.
    await page.reload();
    await expect(card.getByTestId('time-zone-in-force')).toContainText('Tokyo time');
    const me = (await (await page.request.get('/api/user')).json()) as { timezone: string; timezoneChosen: boolean };
    expect(me).toMatchObject({ timezone: 'Asia/Tokyo', timezoneChosen: true });
    await axeClean(page);

    await card.getByRole('button', { name: "Use this device's time zone (London)" }).click();
    await expect(card.getByTestId('time-zone-in-force')).toContainText("Times are shown in London time, this device's time zone");
    await expect(zoneFact).toHaveText('London (Europe/London)');
    const after = (await (await page.request.get('/api/user')).json()) as { timezone: string; timezoneChosen: boolean };
    expect(after).toMatchObject({ timezone: 'Europe/London', timezoneChosen: false });
  });
});
