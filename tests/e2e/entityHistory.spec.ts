import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { bookingStart } from '../../ui/src/features/sessions/bookingFormat.ts';
import { horizontalOverflow } from './browser.ts';
import { googleStudent, signIn, unique } from './helpers.ts';

/**
 * Entity history and time travel (issue 12 §6): a session booked and moved through the API; an
 * admin opens its history from the URL and from the Overview's "Open entity" box, steps back one
 * revision (the folded state goes back to the first hour), follows the booking's story across
 * entities, and closes the panel with Escape.
 */

const NY = 'America/New_York';

async function adminRequest(request: APIRequestContext) {
  const login = await request.post('/api/login', { data: { username: 'e2e.admin', password: 'admin-pass-1' } });
  expect(login.ok()).toBe(true);
}

/** A free 4-session Calculus course with Maya, active, for a new Google student signed in on `page`; its id. */
async function activeCourse(page: Page, request: APIRequestContext): Promise<{ courseId: string; tutorId: string }> {
  await page.goto('/api/auth/google?userType=student');
  const n = unique();
  await googleStudent(page, `historystudent${n}@example.com`, 'Hal', `Story${n}`);
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  const api = page.request;
  const me = (await (await api.get('/api/user')).json()) as { id: string; student: { id: string } };
  const studentId = me.student.id;
  expect((await api.put(`/api/student/${studentId}/account`, { data: { grade: 'Grade 11', schoolYearStartMonth: 9 } })).ok()).toBe(true);

  await adminRequest(request);
  const code = `FREE${unique().toUpperCase()}`;
  const created = await request.post('/api/admin/promo-codes', {
    data: {
      code,
      description: '100% off',
      discountType: 'percentage',
      discountValue: '100',
      maxUses: null,
      validFrom: null,
      validUntil: null,
    },
  });
  expect(created.status()).toBe(201);

  const subjects = (await (await api.get('/api/subjects')).json()) as { id: string; name: string }[];
  const calculus = subjects.find((s) => s.name === 'Calculus (Grade 11-12)');
  const packages = (await (await api.get('/api/packages')).json()) as { id: string; sessionCount: number; gradeTier: { id: string } }[];
  const four = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 4);
  if (!calculus || !four) throw new Error('no Calculus or 4-session package in the catalogue');
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
  const courseOf = async () =>
    ((await (await api.get(`/api/student/${studentId}/courses`)).json()) as { id: string; subjectId: string }[]).find(
      (c) => c.subjectId === calculus.id,
    );
  await expect.poll(async () => (await courseOf())?.id, { timeout: 15_000 }).toBeTruthy();
  const tutors = (await (await api.get(`/api/tutors?subjectId=${calculus.id}`)).json()) as { id: string; user: { firstName: string } }[];
  const maya = tutors.find((t) => t.user.firstName === 'Maya');
  if (!maya) throw new Error('Maya is not listed for Calculus');
  const chosen = await api.patch(`/api/student-courses/${studentId}/${calculus.id}`, { data: { tutorId: maya.id, status: 'enrolled' } });
  expect(chosen.status(), await chosen.text()).toBe(200);
  const started = await api.patch(`/api/student-courses/${studentId}/${calculus.id}`, { data: { status: 'active' } });
  expect(started.status(), await started.text()).toBe(200);
  return { courseId: (await courseOf())?.id as string, tutorId: maya.id };
}

/** A New York day ahead with two free hours of the tutor. */
async function twoFreeHours(api: APIRequestContext, tutorId: string) {
  for (let days = 3; days <= 17; days++) {
    const day = new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: NY });
    const slots = (await (await api.get(`/api/tutors/${tutorId}/available-slots?date=${day}`)).json()) as { time: string }[];
    const [first, second] = slots;
    if (first && second) return { day, first: first.time, second: second.time };
  }
  throw new Error('no day with two free hours');
}

test('an admin opens a session’s history and steps back in time to the hour it was first booked at', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { courseId, tutorId } = await activeCourse(page, request);
  const { day, first, second } = await twoFreeHours(page.request, tutorId);
  const nyInstant = (time: string) => new Date(bookingStart(day, time) ?? '').toISOString();
  const booked = await page.request.post('/api/book-session', {
    data: { tutorId, studentCourseId: courseId, date: nyInstant(first), duration: 60, notes: 'Limits' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const sessionId = ((await booked.json()) as { id: string }).id;
  const moved = await page.request.patch(`/api/sessions/${sessionId}/reschedule`, { data: { newDate: `${day}T${second}`, timezone: NY } });
  expect(moved.status(), await moved.text()).toBe(200);

  await page.context().clearCookies();
  await signIn(page, 'e2e.admin', 'admin-pass-1');
  await expect(page).toHaveURL(/\/admin/, { timeout: 10_000 });

  // Straight from the URL: the panel opens over the tab at the session's head (moved to the second hour).
  await page.goto(`/admin?tab=alerts&history=session:${sessionId}`);
  const panel = page.getByRole('dialog', { name: 'Session history' });
  await expect(panel).toBeVisible();
  const timeline = panel.getByRole('region', { name: /Timeline/ });
  await expect(timeline.getByRole('button', { name: /SessionBooked/ })).toBeVisible();
  await expect(timeline.getByRole('button', { name: /SessionRescheduled/ })).toHaveAttribute('aria-current', 'step');
  const state = panel.getByTestId('history-state');
  await expect(state).toHaveAttribute('data-revision', '1');
  await expect(state).toContainText(`"start": "${nyInstant(second)}"`);
  await expect(panel.getByTestId('history-changes')).toContainText('start');

  // One step back in time: the state as the booking left it.
  await panel.getByRole('button', { name: 'Previous event' }).click();
  await expect(state).toHaveAttribute('data-revision', '0');
  await expect(state).toContainText(`"start": "${nyInstant(first)}"`);
  await expect(panel.getByLabel(/Revision 0 of 1/)).toHaveValue('0');
  await expect(timeline.getByRole('button', { name: /SessionBooked/ })).toHaveAttribute('aria-current', 'step');

  await page.screenshot({ path: '.tmp/history-shots/session-revision-0.png' });

  // The booking's story crosses the tutor's schedule, the course's ledger and the session.
  await panel.getByRole('button', { name: 'Follow this story' }).click();
  const story = panel.getByTestId('history-story');
  await expect(story).toContainText('TutorHourClaimed');
  await expect(story).toContainText('CourseCreditReserved');
  const openCourse = story.getByRole('button', { name: `Open the history of course ${courseId}` });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await openCourse.click();
  await expect(page.getByRole('dialog', { name: 'Course history' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`history=course(%3A|:)${courseId}`));

  // Phone width: no sideways page scroll.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBe(0);
  await page.screenshot({ path: '.tmp/history-shots/course-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Escape closes it and takes `history` off the URL, keeping the tab.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\?tab=alerts$/);

  // The Overview's "Open entity" box opens any entity by kind and id.
  await page.goto('/admin?tab=overview');
  const open = page.getByRole('form', { name: 'Open entity' });
  await open.getByLabel('Entity kind').selectOption('session');
  await open.getByLabel('Entity id').fill(sessionId);
  await open.getByRole('button', { name: 'Open entity' }).click();
  await expect(page.getByRole('dialog', { name: 'Session history' })).toBeVisible();
  await expect(page.getByRole('dialog').getByTestId('history-state')).toHaveAttribute('data-revision', '1');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\?tab=overview$/);
});
