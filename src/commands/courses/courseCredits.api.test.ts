import { describe, expect, it } from 'vitest';
import { apiSpec, SPEC_NOW } from '../../../tests/support/apiSpec.ts';
import { courseStreamId } from '../../domain/courses/course.ts';
import { NO_CREDIT_HELD, NO_SESSIONS_REMAINING, TUTOR_NOT_CHOSEN } from '../../domain/courses/courseDecider.ts';
import { REPURCHASE_ALREADY_PENDING } from '../../domain/courses/courseOffers.ts';
import type { DomainEvent } from '../../domain/kit/decider.ts';
import { courseHandlers } from './courseHandlers.ts';
import { courseLedger } from './courseLedger.ts';
import { markRepurchasePending } from './courseRepurchase.ts';

/**
 * A course's credit ledger as bookings use it (the sessions feature's CourseLedger port) and the
 * one-repurchase-at-a-time claim, on the in-memory event store (no database): a booking reserves
 * only a free credit, however many bookings race; releasing what is not held changes nothing.
 */
const ledger = apiSpec((store) => courseLedger(store, { maxAttempts: 20 }));
const courses = apiSpec(courseHandlers);

const at = SPEC_NOW.toISOString();
const COURSE_ID = '3c2b1a09-8f7e-4d6c-9b5a-493827161504';
const stream = courseStreamId(COURSE_ID);
const enrolled = (credits: number): DomainEvent => ({
  type: 'CourseEnrolled',
  data: { courseId: COURSE_ID, studentId: 'ann', subjectId: 'math', packageId: 'pkg-2', purchaseId: 'buy-1', credits, at },
});
const tutorChosen: DomainEvent = { type: 'CourseTutorChosen', data: { courseId: COURSE_ID, tutorId: 'tutor-1', at } };
const activated: DomainEvent = { type: 'CourseActivated', data: { courseId: COURSE_ID, at } };
const credit = (type: string, sessionId: string): DomainEvent => ({ type, data: { courseId: COURSE_ID, sessionId, at } });
const active = (credits: number) => [enrolled(credits), tutorChosen, activated];

describe('course credits: booking reserves, cancelling releases', () => {
  it('a booking reserves a free credit of the course', async () => {
    await ledger
      .given({ [stream]: active(2) })
      .when((l, call) => l.reserve(COURSE_ID, 's-1', call.as('student', 'ann')))
      .thenAppended({ appended: { [stream]: [credit('CourseCreditReserved', 's-1')] } });
  });

  it('no booking before a tutor is chosen, none when every credit is held', async () => {
    await ledger
      .given({ [stream]: [enrolled(2)] })
      .when((l, call) => l.reserve(COURSE_ID, 's-1', call.as('student', 'ann')))
      .thenRefused(TUTOR_NOT_CHOSEN, 'conflict');
    await ledger
      .given({
        [stream]: [
          ...active(2),
          credit('CourseCreditReserved', 's-1'),
          credit('CourseCreditConsumed', 's-1'),
          credit('CourseCreditReserved', 's-2'),
        ],
      })
      .when((l, call) => l.reserve(COURSE_ID, 's-3', call.as('student', 'ann')))
      .thenRefused(NO_SESSIONS_REMAINING, 'conflict');
  });

  it('5 bookings racing for a course with 2 credits: exactly 2 hold one', async () => {
    await ledger
      .given({ [stream]: active(2) })
      .when(async (l, call) => {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 5 }, (_, n) => l.reserve(COURSE_ID, `s-${n}`, call.as('student', 'ann'))),
        );
        return outcomes.map((o) => (o.status === 'fulfilled' ? 'reserved' : (o.reason as Error).message)).sort();
      })
      .thenAppended({
        appended: {
          [stream]: [expect.objectContaining({ type: 'CourseCreditReserved' }), expect.objectContaining({ type: 'CourseCreditReserved' })],
        },
        answer: [NO_SESSIONS_REMAINING, NO_SESSIONS_REMAINING, NO_SESSIONS_REMAINING, 'reserved', 'reserved'],
      });
  });

  it('a timely cancellation releases the credit once; releasing what is not held changes nothing', async () => {
    await ledger
      .given({ [stream]: [...active(2), credit('CourseCreditReserved', 's-1')] })
      .when(async (l, call) => {
        await l.release(COURSE_ID, 's-1', call.as('student', 'ann'));
        await l.release(COURSE_ID, 's-1', call.as('student', 'ann'));
        await l.release(COURSE_ID, 's-never', call.as('student', 'ann'));
        return (await l.course(COURSE_ID)).sessionsRemaining;
      })
      .thenAppended({ appended: { [stream]: [credit('CourseCreditReleased', 's-1')] }, answer: 2 });
  });

  it('a session completes on the credit it holds, and only on one it holds', async () => {
    await ledger
      .given({ [stream]: [...active(2), credit('CourseCreditReserved', 's-1')] })
      .when((l, call) => l.consume(COURSE_ID, 's-1', call.as('system')))
      .thenAppended({ appended: { [stream]: [credit('CourseCreditConsumed', 's-1')] } });
    await ledger
      .given({ [stream]: active(2) })
      .when((l, call) => l.forfeit(COURSE_ID, 's-1', call.as('system')))
      .thenRefused(NO_CREDIT_HELD, 'conflict');
  });
});

describe('course repurchase: one paid for at a time', () => {
  const usedUp = [...active(1), credit('CourseCreditReserved', 's-1'), credit('CourseCreditConsumed', 's-1')];

  it('of two repurchases started at once, one claims the course and the other is refused', async () => {
    await courses
      .given({ [stream]: usedUp })
      .when(async (h, call) => {
        const outcomes = await Promise.allSettled(
          ['buy-2', 'buy-3'].map((purchaseId) => markRepurchasePending(h, { courseId: COURSE_ID, purchaseId }, call.as('student', 'ann'))),
        );
        return outcomes.map((o) => (o.status === 'fulfilled' ? 'claimed' : (o.reason as Error).message)).sort();
      })
      .thenAppended({
        appended: {
          [stream]: [
            { type: 'CourseRepurchasePending', data: { courseId: COURSE_ID, purchaseId: expect.stringMatching(/^buy-[23]$/), at } },
          ],
        },
        answer: [REPURCHASE_ALREADY_PENDING, 'claimed'].sort(),
      });
  });
});
