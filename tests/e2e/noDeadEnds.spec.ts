import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { googleStudent, signIn, unique } from './helpers.ts';
import { studentWithMaya } from './studentBooking.ts';
import { tutorSignIn } from './tutorCalendar.ts';

/**
 * No dead ends (issue 24 item 1): a subject no tutor teaches is not for sale, the Subjects page
 * counts real tutors, and a family whose tutor leaves is shown the way on: choose another tutor,
 * while the console raises an alert that links to the course's purchase.
 */

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

const DANIEL = { email: 'daniel.tutor@demo.topmark.example', firstName: 'Daniel', lastName: 'Reyes' };
const NO_TUTOR =
  'No tutor teaches this subject yet, so it cannot be bought. Please choose another subject, or contact us and we will tell you when one joins.';

async function adminApi(playwright: { request: { newContext(o: { baseURL?: string }): Promise<APIRequestContext> } }, baseURL: string) {
  const api = await playwright.request.newContext({ baseURL });
  const login = await api.post('/api/login', { data: { username: 'e2e.admin', password: 'admin-pass-1' } });
  expect(login.ok(), await login.text()).toBe(true);
  return api;
}

test('a subject no tutor teaches is not for sale: the Subjects page and Add Course say so, and the server refuses it', async ({ page }) => {
  // The Subjects page: real figures, and Finance (no tutor in the demo catalogue) says so.
  await page.goto('/subjects');
  const finance = page.locator('#finance');
  await expect(finance.getByTestId('subject-tutors')).toHaveText('No tutor yet');
  await expect(finance.getByRole('link', { name: /Ask us about Finance/ })).toBeVisible();
  const stats = (await (await page.request.get('/api/subjects/tutor-stats')).json()) as {
    subjects: { category: string | null; tutorIds: string[] }[];
  };
  const mathTutors = new Set(stats.subjects.filter((s) => s.category === 'Mathematics').flatMap((s) => s.tutorIds)).size;
  expect(mathTutors).toBeGreaterThan(0);
  await expect(page.locator('#mathematics').getByTestId('subject-tutors')).toHaveText(
    `${mathTutors} ${mathTutors === 1 ? 'tutor' : 'tutors'}`,
  );
  await expect(page.getByText(/subject specialists across all eight subjects/)).toHaveCount(0);
  await axeClean(page);

  // A new Grade 11 student: Add Course lists Accounting (Grade 11-12) as not yet buyable.
  await page.goto('/api/auth/google?userType=student');
  await googleStudent(page, `shop${unique()}@example.com`, 'Shay', 'Shopper');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  const me = (await (await page.request.get('/api/user')).json()) as { student: { id: string } };
  const studentId = me.student.id;
  expect((await page.request.put(`/api/student/${studentId}/account`, { data: { grade: 'Grade 11', schoolYearStartMonth: 9 } })).ok()).toBe(
    true,
  );
  await page.reload();
  await page.getByRole('button', { name: 'Add Course' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Course' });
  await dialog.getByLabel('Level').selectOption({ label: 'Grade 11-12' });
  const subject = dialog.getByLabel('Subject');
  await expect(subject.locator('option', { hasText: 'Accounting (Grade 11-12) (No tutor yet)' })).toBeDisabled();
  await expect(subject.locator('option', { hasText: /^Calculus \(Grade 11-12\)$/ })).toBeEnabled();
  await expect(dialog.getByText('Subjects marked “No tutor yet” cannot be bought until a tutor teaches them.')).toBeVisible();
  await axeClean(page);

  // The server refuses it too (409), whatever the page offered.
  const subjects = (await (await page.request.get('/api/subjects')).json()) as { id: string; name: string }[];
  const packages = (await (await page.request.get('/api/packages')).json()) as {
    id: string;
    sessionCount: number;
    gradeTier: { id: string };
  }[];
  const accounting = subjects.find((s) => s.name === 'Accounting (Grade 11-12)')?.id as string;
  const four = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 4)?.id as string;
  const refused = await page.request.post('/api/create-payment-intent', { data: { packageId: four, subjectId: accounting, studentId } });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toEqual({ message: NO_TUTOR });
  expect(await (await page.request.get(`/api/student/${studentId}/courses`)).json()).toEqual([]);
});

test('a family whose tutor is deactivated is asked to choose another tutor; the console alerts with a link to the purchase', async ({
  page,
  browser,
  request,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // Daniel also teaches Calculus (Grade 11-12) for this test: Maya's students then have someone to choose.
  const danielPage = await (await browser.newContext()).newPage();
  await tutorSignIn(danielPage, DANIEL);
  const original = (await (await danielPage.request.get('/api/tutor/subjects')).json()) as { subjectId: string; maxGradeLevel: string }[];
  const subjects = (await (await danielPage.request.get('/api/subjects')).json()) as { id: string; name: string }[];
  const calculus = subjects.find((s) => s.name === 'Calculus (Grade 11-12)')?.id as string;
  const restore = original.map(({ subjectId, maxGradeLevel }) => ({ subjectId, maxGradeLevel }));
  const added = await danielPage.request.post('/api/tutor/subjects', {
    data: { subjectQualifications: [...restore, { subjectId: calculus, maxGradeLevel: 'grade_11_12' }] },
  });
  expect(added.status(), await added.text()).toBe(200);

  const admin = await adminApi(playwright, baseURL as string);
  const family = await studentWithMaya(page, request, true, { firstName: 'Lee', lastName: 'Left', emailPrefix: 'tutorleft' });
  const [course] = (await (await page.request.get(`/api/student/${family.studentId}/courses`)).json()) as { purchaseId: string }[];
  const purchaseId = course?.purchaseId as string;
  let mayaDeactivated = false;
  try {
    const off = await admin.post(`/api/admin/users/${family.tutor.id}/deactivate`, { data: { reason: 'Left the platform (e2e)' } });
    expect(off.status(), await off.text()).toBe(200);
    mayaDeactivated = true;

    // The console: an alert about this family's course, linking to its purchase.
    const adminPage = await (await browser.newContext()).newPage();
    await signIn(adminPage, 'e2e.admin', 'admin-pass-1');
    await expect(adminPage).toHaveURL(/\/admin/);
    const purchaseLink = adminPage.locator(`button[title="Purchase ${purchaseId}"]`);
    const row = adminPage.getByTestId('alert-row').filter({ has: purchaseLink });
    await expect(async () => {
      await adminPage.goto('/admin?tab=alerts');
      await expect(row).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(row).toContainText("A family's tutor left: Calculus (Grade 11-12)");
    await expect(row).toContainText('was deactivated by an admin');
    await axeClean(adminPage);

    // The family's dashboard: Maya is gone, choose another tutor.
    await page.goto('/student');
    const card = page.getByTestId('course-row').filter({ hasText: 'Calculus (Grade 11-12)' });
    const notice = card.getByTestId('course-tutor-left');
    await expect(notice).toContainText('Maya Okafor is no longer available');
    await expect(notice).toContainText('the sessions you have left stay on your course');
    await axeClean(page);
    await notice.getByRole('link', { name: 'Choose another tutor' }).click();
    await expect(page).toHaveURL(/\/tutor-selection$/);
    await expect(page.getByText('Maya Okafor')).toHaveCount(0);
    const daniel = page.getByRole('listitem').filter({ hasText: 'Daniel Reyes' });
    await daniel.getByRole('button', { name: 'Select This Tutor' }).click();
    await expect(page).toHaveURL(/\/time-slot-selection$/);
    await page.getByRole('button', { name: 'Skip for Now' }).click();
    await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
    await expect(card).toContainText('Tutor: Daniel Reyes');
    await expect(card.getByTestId('course-tutor-left')).toHaveCount(0);

    // The choice closes the alert.
    await expect(async () => {
      await adminPage.goto('/admin?tab=alerts');
      await expect(row).toHaveCount(0, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  } finally {
    if (mayaDeactivated) {
      const on = await admin.post(`/api/admin/users/${family.tutor.id}/reactivate`, { data: { reason: 'Back (e2e)' } });
      expect(on.status(), await on.text()).toBe(200);
    }
    const back = await danielPage.request.post('/api/tutor/subjects', { data: { subjectQualifications: restore } });
    expect(back.status(), await back.text()).toBe(200);
  }
});
