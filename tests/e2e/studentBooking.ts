import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { BOOKING_ZONE, slotLabelAt } from '../../ui/src/features/sessions/bookingFormat.ts';
import { googleStudent, unique } from './helpers.ts';

/**
 * A student with a course and a chosen demo tutor, ready to book, and the tutor's free hours (the
 * booking, projections, tutor sessions, console sessions and entity history specs).
 */

/** A free (100%) promo code made by the e2e admin (tests/e2e/serve.ts). */
export async function freeCode(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/login', { data: { username: 'e2e.admin', password: 'admin-pass-1' } });
  expect(login.ok()).toBe(true);
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
  return code;
}

/** The browser's zone: the app stores it as the user's zone on sign-in (spec part 1 §4), and shows times in it. */
export async function browserZone(page: Page): Promise<string> {
  return String(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone'));
}

export interface Arranged {
  studentId: string;
  courseId: string;
  zone: string;
  subject: { id: string; name: string };
  packageInfo: { id: string; name: string; sessionCount: number; totalPrice: number };
  tutor: { id: string; name: string };
}

/** How a new student is called: the last name and the e-mail address get a unique suffix. */
export interface NewStudent {
  firstName: string;
  lastName: string;
  emailPrefix: string;
}

/**
 * A new Grade 11 student signed in on `page` (dev Google sign-in), who bought a 4-session Calculus
 * package free with a 100% code and chose Maya Okafor; `activate` also starts the course.
 */
export async function studentWithMaya(
  page: Page,
  request: APIRequestContext,
  activate: boolean,
  who: NewStudent = { firstName: 'Bo', lastName: 'Student', emailPrefix: 'bookingstudent' },
): Promise<Arranged & { name: string; email: string }> {
  await page.goto('/api/auth/google?userType=student');
  const n = unique();
  const name = `${who.firstName} ${who.lastName}${n}`;
  const email = `${who.emailPrefix}${n}@example.com`;
  await googleStudent(page, email, who.firstName, `${who.lastName}${n}`);
  await expect(page).toHaveURL(/\/accept-terms/);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 10_000 });
  const me = (await (await page.request.get('/api/user')).json()) as { id: string; student: { id: string } };
  const studentId = me.student.id;
  const account = await page.request.put(`/api/student/${studentId}/account`, { data: { grade: 'Grade 11', schoolYearStartMonth: 9 } });
  expect(account.ok()).toBe(true);
  const arranged = await buyCalculusWithMaya(page.request, request, { userId: me.id, zone: await browserZone(page), studentId }, activate);
  return { ...arranged, name, email };
}

/** The buyer (`api`: the student or their parent) buys Calculus for a Grade 11 student free with a 100% code and chooses Maya. */
export async function buyCalculusWithMaya(
  api: APIRequestContext,
  request: APIRequestContext,
  buyer: { userId: string; zone: string; studentId: string },
  activate: boolean,
  subjectName = 'Calculus (Grade 11-12)',
): Promise<Arranged> {
  const code = await freeCode(request);
  const { studentId } = buyer;
  const subjects = (await (await api.get('/api/subjects')).json()) as { id: string; name: string }[];
  const calculus = subjects.find((s) => s.name === subjectName);
  const packages = (await (await api.get('/api/packages')).json()) as {
    id: string;
    name: string;
    sessionCount: number;
    totalPrice: number;
    gradeTier: { id: string };
  }[];
  const four = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 4);
  if (!calculus || !four) throw new Error('no Calculus or 4-session package in the catalogue');
  const quote = (await (
    await api.post('/api/promo-codes/validate', { data: { code, packageId: four.id, userId: buyer.userId } })
  ).json()) as {
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
  const courseId = (await courseOf())?.id as string;
  const tutors = (await (await api.get(`/api/tutors?subjectId=${calculus.id}`)).json()) as {
    id: string;
    user: { firstName: string; lastName: string };
  }[];
  const maya = tutors.find((t) => t.user.firstName === 'Maya');
  if (!maya) throw new Error('Maya is not listed for Calculus');
  const chosen = await api.patch(`/api/student-courses/${studentId}/${calculus.id}`, { data: { tutorId: maya.id, status: 'enrolled' } });
  expect(chosen.status(), await chosen.text()).toBe(200);
  if (activate) {
    const started = await api.patch(`/api/student-courses/${studentId}/${calculus.id}`, { data: { status: 'active' } });
    expect(started.status(), await started.text()).toBe(200);
  }
  return {
    studentId,
    courseId,
    zone: buyer.zone,
    subject: calculus,
    packageInfo: { id: four.id, name: four.name, sessionCount: four.sessionCount, totalPrice: four.totalPrice },
    tutor: { id: maya.id, name: `${maya.user.firstName} ${maya.user.lastName}` },
  };
}

/** A New York day from `fromDays` ahead on which the tutor has at least two free hours, with those hours ("HH:mm"). */
export async function dayWithTwoSlots(api: APIRequestContext, tutorId: string, fromDays: number) {
  for (let days = fromDays; days <= fromDays + 14; days++) {
    const day = new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
    const res = await api.get(`/api/tutors/${tutorId}/available-slots?date=${day}`);
    expect(res.status(), await res.text()).toBe(200);
    const slots = (await res.json()) as { time: string }[];
    const [first, second] = slots;
    if (first && second) return { day, first: first.time, second: second.time };
  }
  throw new Error('the tutor has no day with two free hours in the next two weeks');
}

/**
 * The first day from `fromDays` ahead (in `zone`) on which the tutor has `count` free hours, with
 * their starts (ISO instants), read as the booking dialog does.
 */
export async function freeHours(api: APIRequestContext, tutorId: string, options: { fromDays: number; zone: string; count: number }) {
  for (let days = options.fromDays; days <= options.fromDays + 14; days++) {
    const day = new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: options.zone });
    const res = await api.get(`/api/tutors/${tutorId}/availability/${day}?timezone=${encodeURIComponent(options.zone)}`);
    expect(res.status(), await res.text()).toBe(200);
    const { slots } = (await res.json()) as { slots: { start: string }[] };
    if (slots.length >= options.count) return { day, starts: slots.slice(0, options.count).map((s) => s.start) };
  }
  throw new Error(`the tutor has no day with ${options.count} free hours in the next two weeks`);
}

/** The instant of a New York grid time on a date (the earlier one where the clock repeats), as the API gives slots. */
export function newYorkStart(day: string, time: string): string {
  return Temporal.PlainDateTime.from(`${day}T${time}`)
    .toZonedDateTime(BOOKING_ZONE, { disambiguation: 'compatible' })
    .toInstant()
    .toString();
}

/** The booking grid's button label of that New York time ("2:00 PM EST"). */
export const gridLabel = (day: string, time: string) => slotLabelAt(newYorkStart(day, time));
