import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { horizontalOverflow, seriousViolations } from './browser.ts';
import { googleStudent, unique } from './helpers.ts';

/** A 1x1 transparent PNG. */
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The dev consent page that stands in for Google, as a tutor. */
async function googleTutor(page: Page, email: string, firstName: string, lastName: string) {
  await expect(page.getByText('You are signing in as a tutor applicant.')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/First name/i).fill(firstName);
  await page.getByLabel(/Last name/i).fill(lastName);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** An API client signed in as the e2e admin (tests/e2e/serve.ts). */
async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/login', { data: { username: 'e2e.admin', password: 'admin-pass-1' } });
  expect(login.ok()).toBe(true);
  return request;
}

test('invited tutor applies with Google, is approved, completes onboarding and is listed on Meet Our Tutors', async ({ page, request }) => {
  test.setTimeout(180_000);
  const n = unique();
  const email = `tutor${n}@example.com`;
  const lastName = `Turing${n}`;
  const admin = await adminApi(request);

  // The admin invites the tutor.
  const invite = await admin.post('/api/admin/tutors/invite', { data: { email } });
  expect(invite.ok(), await invite.text()).toBe(true);

  // The tutor applies: terms, Google (the dev consent page), then the applicant page.
  await page.goto('/tutor-login');
  await page.getByLabel('I accept the terms and conditions').check();
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await googleTutor(page, email, 'Ada', lastName);
  await expect(page.getByRole('heading', { name: 'Application Submitted!' })).toBeVisible();

  // The admin approves the application.
  let applicationId: string | undefined;
  await expect
    .poll(async () => {
      const res = await admin.get('/api/admin/tutor-applications');
      const list = (await res.json()) as { id: string; email: string }[];
      applicationId = list.find((a) => a.email === email)?.id;
      return applicationId;
    })
    .toBeTruthy();
  const approve = await admin.post(`/api/admin/tutors/${applicationId}/approve`);
  expect(approve.ok(), await approve.text()).toBe(true);

  // The tutor signs in again with Google and lands on onboarding: the agreement accepted when
  // applying was recorded, so the Student/Parent Agreement is not asked for.
  await page.goto('/tutor-login');
  await page.getByLabel('I accept the terms and conditions').check();
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await googleTutor(page, email, 'Ada', lastName);
  await expect(page).toHaveURL(/\/tutor-onboarding$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: /Welcome to Topmark, Ada/ })).toBeVisible();

  // Step 1: profile.
  await expect(page.getByLabel('First name')).toHaveValue('Ada');
  await page.getByLabel('Bio', { exact: true }).fill('I teach calculus and physics with worked examples and plenty of practice.');
  await page.getByLabel('Experience (years)').fill('6');
  expect(await seriousViolations(page, 'onboarding profile')).toEqual([]);
  await page.getByRole('button', { name: 'Save and continue' }).click();

  // Step 2: subjects; a university course selects its lower levels, with the toast.
  await expect(page.getByRole('heading', { name: 'Subjects & levels' })).toBeVisible();
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByText('Please select at least one subject')).toBeVisible();
  await page.getByLabel('Calculus (University/College)', { exact: true }).check();
  await expect(page.getByText('Courses auto-selected').first()).toBeVisible();
  await expect(
    page.getByText('University courses automatically qualify you to teach high school level subjects in the same area.').first(),
  ).toBeVisible();
  for (const implied of ['Calculus (Grade 11-12)', 'Advanced Functions', 'Functions', 'Math (Grade 10 & Under)']) {
    await expect(page.getByLabel(implied, { exact: true })).toBeChecked();
  }
  await expect(page.getByLabel('Grade level for Calculus (University/College)')).toHaveValue('university');
  await expect(page.getByText('Your subjects are searchable tags')).toBeVisible();
  expect(await seriousViolations(page, 'onboarding subjects')).toEqual([]);
  await page.screenshot({ path: '.tmp/tutor-shots/onboarding-subjects.png', fullPage: true });
  await page.getByRole('button', { name: 'Save and continue' }).click();

  // Step 3: weekly hours (a bad row is refused before sending).
  await expect(page.getByRole('heading', { name: 'Weekly hours' })).toBeVisible();
  await page.getByRole('button', { name: 'Add hours' }).click();
  const rows = page.getByRole('list', { name: 'Weekly hours' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await rows.nth(1).getByLabel('End').fill('08:00');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByText('The end time must be after the start time')).toBeVisible();
  await rows.nth(1).getByLabel('Start').fill('16:00');
  await rows.nth(1).getByLabel('End').fill('19:00');
  await page.getByRole('button', { name: 'Save and continue' }).click();

  // Step 4: calendar (the built-in calendar on a server without Google), then finish.
  await expect(page.getByRole('heading', { name: 'Calendar', exact: true })).toBeVisible();
  await expect(page.getByText('Calendar connected').first()).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Finish onboarding' }).click();

  // The dashboard: calendar connected, the hours, the figures.
  await expect(page).toHaveURL(/\/tutor$/);
  await expect(page.getByRole('heading', { name: /Welcome, Ada/ })).toBeVisible();
  await expect(page.getByTestId('calendar-status')).toContainText('Calendar connected');
  await expect(page.getByTestId('current-hours')).toContainText('Monday 9:00 AM – 5:00 PM');
  await expect(page.getByTestId('current-hours')).toContainText('Tuesday 4:00 PM – 7:00 PM');
  await expect(page.getByText('Earnings this period')).toBeVisible();
  await expect(page.getByText('Finish setting up your tutor profile')).toHaveCount(0);
  expect(await seriousViolations(page, 'tutor dashboard')).toEqual([]);
  await page.screenshot({ path: '.tmp/tutor-shots/dashboard.png', fullPage: true });

  // A picture: a non-image is refused in the browser, a PNG is uploaded and shown.
  const picture = page.getByLabel('Profile picture');
  await picture.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(page.getByText('Invalid file type').first()).toBeVisible();
  await picture.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1x1, 'base64') });
  await expect(page.getByText('Profile picture updated').first()).toBeVisible();
  await expect(page.getByRole('img', { name: 'Your profile' })).toBeVisible();
  // The picture shows at once (the preview is a blob: URL the CSP allows), not a broken image until reload.
  await expect
    .poll(() =>
      page.getByRole('img', { name: 'Your profile' }).evaluate((img) => {
        const picture = img as unknown as { complete: boolean; naturalWidth: number };
        return picture.complete ? picture.naturalWidth : 0;
      }),
    )
    .toBeGreaterThan(0);

  // The name is editable (both parts required).
  await page.getByRole('button', { name: 'Edit name' }).click();
  await page.getByLabel('Last name').fill('   ');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await page.getByLabel('Last name').fill(`King${n}`);
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name updated').first()).toBeVisible();
  await expect(page.getByTestId('dashboard-user')).toContainText(`Ada King${n}`);
  await expect(page.getByLabel('Last name')).toHaveCount(0);

  // The built-in calendar lets the tutor block time: a busy event added in the week view.
  await page.getByRole('button', { name: 'Add event', exact: true }).click();
  const add = page.getByRole('dialog', { name: 'Add an event' });
  await add.getByLabel('Title').fill('Dentist');
  await add.getByRole('button', { name: 'Add event' }).click();
  await expect(page.getByText('Event added', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('calendar-week').getByRole('button', { name: /^Dentist, busy, / })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Meet Our Tutors lists them, also when filtered by the subject.
  await page.goto('/tutors');
  await expect(page.getByRole('heading', { name: 'Meet Our Tutors' })).toBeVisible();
  const card = page.getByTestId('tutor-card').filter({ hasText: `Ada King${n}` });
  await expect(card).toBeVisible();
  await expect(card).toContainText('New');
  await expect(card).toContainText('6 years of experience');
  await expect(card).toContainText('more');
  await page.getByLabel('Subject', { exact: true }).selectOption({ label: 'Calculus (University/College)' });
  await expect(card).toBeVisible();
  expect(await seriousViolations(page, '/tutors')).toEqual([]);
  await page.screenshot({ path: '.tmp/tutor-shots/tutors.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
});

test('the tutor pages tell other roles they are for tutors only', async ({ page }) => {
  // A student of our own through the dev Google page (the demo accounts' file is shared between runs).
  await page.goto('/api/auth/google?userType=student');
  await googleStudent(page, `student${unique()}@example.com`, 'Sam', 'Student');
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student/, { timeout: 10_000 });
  for (const path of ['/tutor', '/tutor-onboarding']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText('This page is only accessible to tutors.')).toBeVisible();
  }
});

test('signed-out visitors of the tutor pages are sent to sign in', async ({ page }) => {
  await page.goto('/tutor-onboarding');
  await expect(page).toHaveURL(/\/tutor-login$/);
  await page.goto('/tutor');
  await expect(page).toHaveURL(/\/login$/);
});

test('Meet Our Tutors is public and reached from the footer', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Meet Our Tutors' }).click();
  await expect(page).toHaveURL(/\/tutors$/);
  await expect(page.getByRole('heading', { name: 'Meet Our Tutors' })).toBeVisible();
  await expect(page.getByLabel('Grade level')).toBeVisible();
});
