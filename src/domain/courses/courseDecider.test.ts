import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { fold } from '../kit/decider.ts';
import { type CourseEvent, sessionsRemainingOf } from './course.ts';
import {
  COURSE_ENDED,
  COURSE_EXISTS,
  COURSE_NOT_FOUND,
  courseDecider,
  END_ONLY_WHEN_USED,
  NO_CREDIT_HELD,
  NO_SESSIONS_REMAINING,
  REPURCHASE_ALREADY_PENDING,
  REPURCHASE_BEING_PAID,
  REPURCHASE_WHILE_SESSIONS_REMAIN,
  TUTOR_NOT_CHOSEN,
  TUTOR_NOT_QUALIFIED,
} from './courseDecider.ts';
import { endCourseRefusal, offersRenewal, repurchaseRefusal } from './courseOffers.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now, actorId: 'system', actorRole: 'system' };
const courseId = 'c1';
const enrolled: CourseEvent = {
  type: 'CourseEnrolled',
  data: { courseId, studentId: 's1', subjectId: 'math', packageId: 'pkg-4', purchaseId: 'buy-1', credits: 2, at },
};
const tutorChosen: CourseEvent = { type: 'CourseTutorChosen', data: { courseId, tutorId: 't1', at } };
const activated: CourseEvent = { type: 'CourseActivated', data: { courseId, at } };
const credit = (
  type: 'CourseCreditReserved' | 'CourseCreditReleased' | 'CourseCreditConsumed' | 'CourseCreditForfeited',
  sessionId: string,
) => ({ type, data: { courseId, sessionId, at } }) as CourseEvent;
const session = (type: 'ReserveCredit' | 'ReleaseCredit' | 'ConsumeCredit' | 'ForfeitCredit', sessionId: string) => ({
  type,
  data: { courseId, sessionId },
  metadata,
});

describe('course decider', () => {
  const spec = deciderSpec(courseDecider);

  it('enrols once per purchase', () => {
    const enrol = { type: 'EnrollCourse' as const, data: { ...enrolled.data, at: undefined } as never, metadata };
    const { at: _at, ...data } = enrolled.data;
    spec.given([]).when({ type: 'EnrollCourse', data, metadata }).thenEvents([enrolled]);
    spec.given([enrolled]).when({ type: 'EnrollCourse', data, metadata }).thenNothing();
    spec
      .given([enrolled])
      .when({ type: 'EnrollCourse', data: { ...data, purchaseId: 'buy-2' }, metadata })
      .thenThrows(COURSE_EXISTS, 'conflict');
    spec
      .given([])
      .when({ type: 'EnrollCourse', data: { ...data, credits: 0 }, metadata })
      .thenThrows(/at least one session/, 'invalid');
    expect(enrol.type).toBe('EnrollCourse');
  });

  it('takes a qualified tutor, then activates; not before a tutor is chosen', () => {
    const choose = (tutorQualified: boolean) => ({
      type: 'ChooseCourseTutor' as const,
      data: { courseId, tutorId: 't1', tutorQualified },
      metadata,
    });
    spec.given([enrolled]).when(choose(true)).thenEvents([tutorChosen]);
    spec.given([enrolled]).when(choose(false)).thenThrows(TUTOR_NOT_QUALIFIED, 'unprocessable');
    spec.given([enrolled, tutorChosen]).when(choose(true)).thenNothing();
    spec.given([]).when(choose(true)).thenThrows(COURSE_NOT_FOUND, 'not_found');
    spec.given([enrolled]).when({ type: 'ActivateCourse', data: { courseId }, metadata }).thenThrows(TUTOR_NOT_CHOSEN, 'conflict');
    spec.given([enrolled, tutorChosen]).when({ type: 'ActivateCourse', data: { courseId }, metadata }).thenEvents([activated]);
    spec.given([enrolled, tutorChosen, activated]).when({ type: 'ActivateCourse', data: { courseId }, metadata }).thenNothing();
  });

  it('reserves a credit per booked session while one is free, never more than were bought', () => {
    const given = [enrolled, tutorChosen];
    spec
      .given(given)
      .when(session('ReserveCredit', 'x1'))
      .thenEvents([credit('CourseCreditReserved', 'x1')]);
    spec
      .given([...given, credit('CourseCreditReserved', 'x1')])
      .when(session('ReserveCredit', 'x1'))
      .thenNothing();
    spec
      .given([...given, credit('CourseCreditReserved', 'x1'), credit('CourseCreditReserved', 'x2')])
      .when(session('ReserveCredit', 'x3'))
      .thenThrows(NO_SESSIONS_REMAINING, 'conflict');
    spec
      .given([...given, credit('CourseCreditReserved', 'x1'), credit('CourseCreditConsumed', 'x1'), credit('CourseCreditReserved', 'x2')])
      .when(session('ReserveCredit', 'x3'))
      .thenThrows(NO_SESSIONS_REMAINING, 'conflict');
    spec.given([enrolled]).when(session('ReserveCredit', 'x1')).thenThrows(TUTOR_NOT_CHOSEN, 'conflict');
  });

  it('releases a held credit once (cancelled in time, or a failed booking compensated)', () => {
    const held = [enrolled, tutorChosen, credit('CourseCreditReserved', 'x1')];
    spec
      .given(held)
      .when(session('ReleaseCredit', 'x1'))
      .thenEvents([credit('CourseCreditReleased', 'x1')]);
    spec
      .given([...held, credit('CourseCreditReleased', 'x1')])
      .when(session('ReleaseCredit', 'x1'))
      .thenNothing();
    spec.given([enrolled, tutorChosen]).when(session('ReleaseCredit', 'nothing-held')).thenNothing();
  });

  it('consumes or forfeits only a held credit, once', () => {
    const held = [enrolled, tutorChosen, credit('CourseCreditReserved', 'x1')];
    spec
      .given(held)
      .when(session('ConsumeCredit', 'x1'))
      .thenEvents([credit('CourseCreditConsumed', 'x1')]);
    spec
      .given(held)
      .when(session('ForfeitCredit', 'x1'))
      .thenEvents([credit('CourseCreditForfeited', 'x1')]);
    spec
      .given([...held, credit('CourseCreditConsumed', 'x1')])
      .when(session('ConsumeCredit', 'x1'))
      .thenNothing();
    spec.given([enrolled, tutorChosen]).when(session('ConsumeCredit', 'x9')).thenThrows(NO_CREDIT_HELD, 'conflict');
  });

  it('ends only when every credit is used; a repurchase credits once and reopens an ended course', () => {
    const used = [
      enrolled,
      tutorChosen,
      activated,
      ...['x1', 'x2'].flatMap((s) => [credit('CourseCreditReserved', s), credit('CourseCreditConsumed', s)]),
    ];
    spec
      .given([enrolled, tutorChosen, activated])
      .when({ type: 'EndCourse', data: { courseId }, metadata })
      .thenThrows(END_ONLY_WHEN_USED, 'conflict');
    const ended: CourseEvent = { type: 'CourseEnded', data: { courseId, at } };
    spec.given(used).when({ type: 'EndCourse', data: { courseId }, metadata }).thenEvents([ended]);
    spec
      .given([...used, ended])
      .when(session('ReserveCredit', 'x3'))
      .thenThrows(COURSE_ENDED, 'conflict');
    const repurchase = {
      type: 'AddCourseCredits' as const,
      data: { courseId, packageId: 'pkg-8', purchaseId: 'buy-2', credits: 8 },
      metadata,
    };
    const added: CourseEvent = { type: 'CourseCreditsAdded', data: { ...repurchase.data, at } };
    spec
      .given([...used, ended])
      .when(repurchase)
      .thenEvents([added, activated]);
    spec
      .given([...used, added])
      .when(repurchase)
      .thenNothing();
    expect(sessionsRemainingOf(fold(courseDecider, [...used, ended, added, activated]))).toBe(8);
  });

  describe('a repurchase being paid for is claimed on the course', () => {
    const used = [
      enrolled,
      tutorChosen,
      activated,
      ...['x1', 'x2'].flatMap((s) => [credit('CourseCreditReserved', s), credit('CourseCreditConsumed', s)]),
    ];
    const mark = (purchaseId: string) => ({ type: 'MarkRepurchasePending' as const, data: { courseId, purchaseId }, metadata });
    const pending = (purchaseId: string): CourseEvent => ({ type: 'CourseRepurchasePending', data: { courseId, purchaseId, at } });
    const clear = (purchaseId: string, outcome: 'completed' | 'abandoned' | 'failed' | 'given_back') => ({
      type: 'ClearRepurchase' as const,
      data: { courseId, purchaseId, outcome },
      metadata,
    });
    const cleared = (purchaseId: string, outcome: 'completed' | 'abandoned' | 'failed' | 'given_back'): CourseEvent => ({
      type: 'CourseRepurchaseCleared',
      data: { courseId, purchaseId, outcome, at },
    });
    const end = { type: 'EndCourse' as const, data: { courseId }, metadata };
    const ended: CourseEvent = { type: 'CourseEnded', data: { courseId, at } };
    const add = (purchaseId: string) => ({
      type: 'AddCourseCredits' as const,
      data: { courseId, packageId: 'pkg-4', purchaseId, credits: 4 },
      metadata,
    });
    const added = (purchaseId: string): CourseEvent => ({ type: 'CourseCreditsAdded', data: { ...add(purchaseId).data, at } });

    it('one at a time: a second repurchase is refused while the first is pending; the same one again changes nothing', () => {
      spec
        .given(used)
        .when(mark('r1'))
        .thenEvents([pending('r1')]);
      spec
        .given([...used, pending('r1')])
        .when(mark('r2'))
        .thenThrows(REPURCHASE_ALREADY_PENDING, 'conflict');
      spec
        .given([...used, pending('r1')])
        .when(mark('r3'))
        .thenThrows(REPURCHASE_ALREADY_PENDING, 'conflict');
      spec
        .given([...used, pending('r1')])
        .when(mark('r1'))
        .thenNothing();
      expect(fold(courseDecider, [...used, pending('r1')]).pendingRepurchase).toBe('r1');
    });

    it('refused for an ended course, a course with sessions left, an unknown course', () => {
      spec
        .given([...used, ended])
        .when(mark('r1'))
        .thenThrows(COURSE_ENDED, 'conflict');
      spec.given([enrolled, tutorChosen]).when(mark('r1')).thenThrows(REPURCHASE_WHILE_SESSIONS_REMAIN, 'conflict');
      spec.given([]).when(mark('r1')).thenThrows(COURSE_NOT_FOUND, 'not_found');
    });

    it('End Course is refused while one is pending, and allowed once it is cleared', () => {
      spec
        .given([...used, pending('r1')])
        .when(end)
        .thenThrows(REPURCHASE_BEING_PAID, 'conflict');
      spec
        .given([...used, pending('r1'), cleared('r1', 'abandoned')])
        .when(end)
        .thenEvents([ended]);
    });

    it('cleared with the credits on completion, once', () => {
      spec
        .given([...used, pending('r1')])
        .when(add('r1'))
        .thenEvents([added('r1'), cleared('r1', 'completed')]);
      spec
        .given([...used, pending('r1'), added('r1'), cleared('r1', 'completed')])
        .when(add('r1'))
        .thenNothing();
      // Another purchase's credits leave the pending one's mark alone.
      spec
        .given([...used, pending('r1')])
        .when(add('r0'))
        .thenEvents([added('r0')]);
      // Credited already: a late mark of the same purchase claims nothing.
      spec
        .given([...used, pending('r1'), added('r1'), cleared('r1', 'completed')])
        .when(mark('r1'))
        .thenNothing();
      const after = fold(courseDecider, [...used, pending('r1'), added('r1'), cleared('r1', 'completed')]);
      expect(after.pendingRepurchase).toBeNull();
    });

    it('cleared when abandoned, failed or given back; idempotent by state (only the pending purchase, only once)', () => {
      for (const outcome of ['abandoned', 'failed', 'given_back'] as const) {
        spec
          .given([...used, pending('r1')])
          .when(clear('r1', outcome))
          .thenEvents([cleared('r1', outcome)]);
      }
      spec
        .given([...used, pending('r1'), cleared('r1', 'abandoned')])
        .when(clear('r1', 'abandoned'))
        .thenNothing();
      spec.given(used).when(clear('r1', 'abandoned')).thenNothing();
      spec
        .given([...used, pending('r1')])
        .when(clear('r2', 'abandoned'))
        .thenNothing();
      // Cleared: the next repurchase may start.
      spec
        .given([...used, pending('r1'), cleared('r1', 'abandoned')])
        .when(mark('r2'))
        .thenEvents([pending('r2')]);
    });
  });

  describe('End Course and Repurchase: one rule for the decider and the dashboards (courseOffers.ts)', () => {
    const end = { type: 'EndCourse' as const, data: { courseId }, metadata };
    const markRepurchase = { type: 'MarkRepurchasePending' as const, data: { courseId, purchaseId: 'buy-2' }, metadata };
    const pending: CourseEvent = { type: 'CourseRepurchasePending', data: { courseId, purchaseId: 'buy-3', at } };
    const allBooked = [enrolled, tutorChosen, activated, credit('CourseCreditReserved', 'x1'), credit('CourseCreditReserved', 'x2')];

    it('every session booked: End Course refused (a session is still ahead), Repurchase accepted', () => {
      spec.given(allBooked).when(end).thenThrows(END_ONLY_WHEN_USED, 'conflict');
      spec
        .given(allBooked)
        .when(markRepurchase)
        .thenEvents([{ type: 'CourseRepurchasePending', data: { courseId, purchaseId: 'buy-2', at } }]);
      // The read model's counts for the same course: 2 booked, 0 left.
      const card = { status: 'active' as const, left: 0, booked: 2, repurchasePending: false };
      expect(endCourseRefusal(card)).toBe(END_ONLY_WHEN_USED);
      expect(repurchaseRefusal(card)).toBeNull();
      expect(offersRenewal(card)).toBe(true);
    });

    it('one booked, one used: End Course still refused; once both are used both are accepted', () => {
      const oneLeftBooked = [...allBooked, credit('CourseCreditConsumed', 'x1')];
      spec.given(oneLeftBooked).when(end).thenThrows(END_ONLY_WHEN_USED, 'conflict');
      const allUsed = [...oneLeftBooked, credit('CourseCreditForfeited', 'x2')];
      spec
        .given(allUsed)
        .when(end)
        .thenEvents([{ type: 'CourseEnded', data: { courseId, at } }]);
      expect(endCourseRefusal({ status: 'active', left: 0, booked: 0, repurchasePending: false })).toBeNull();
    });

    it('a session left: neither is accepted nor offered', () => {
      const oneLeft = [enrolled, tutorChosen, activated, credit('CourseCreditReserved', 'x1')];
      spec.given(oneLeft).when(end).thenThrows(END_ONLY_WHEN_USED, 'conflict');
      spec.given(oneLeft).when(markRepurchase).thenThrows(REPURCHASE_WHILE_SESSIONS_REMAIN, 'conflict');
      expect(offersRenewal({ status: 'active', left: 1, booked: 1, repurchasePending: false })).toBe(false);
    });

    it('a repurchase being paid for: neither is offered, each refused with its own reason', () => {
      const paying = [...allBooked, credit('CourseCreditConsumed', 'x1'), credit('CourseCreditConsumed', 'x2'), pending];
      spec.given(paying).when(end).thenThrows(REPURCHASE_BEING_PAID, 'conflict');
      spec.given(paying).when(markRepurchase).thenThrows(REPURCHASE_ALREADY_PENDING, 'conflict');
      expect(offersRenewal({ status: 'active', left: 0, booked: 0, repurchasePending: true })).toBe(false);
    });

    it('an ended course offers neither', () => {
      expect(endCourseRefusal({ status: 'inactive', left: 0, booked: 0, repurchasePending: false })).toBe(COURSE_ENDED);
      expect(repurchaseRefusal({ status: 'inactive', left: 0, booked: 0, repurchasePending: false })).toBe(COURSE_ENDED);
    });

    it('a refund that took the unbooked credits leaves the booked ones: End Course refused until they are held', () => {
      const refunded = [
        { ...enrolled, data: { ...enrolled.data, credits: 4 } } as CourseEvent,
        tutorChosen,
        activated,
        credit('CourseCreditReserved', 'x1'),
        credit('CourseCreditReserved', 'x2'),
        { type: 'CourseCreditsRemoved', data: { courseId, purchaseId: 'buy-1', credits: 2, at } } as CourseEvent,
      ];
      const state = fold(courseDecider, refunded);
      expect({ total: state.totalSessions, booked: state.reserved.length, used: state.used.length }).toEqual({
        total: 2,
        booked: 2,
        used: 0,
      });
      spec.given(refunded).when(end).thenThrows(END_ONLY_WHEN_USED, 'conflict');
    });
  });

  it('keeps sessionsRemaining = bought − reserved − used over any history', () => {
    const state = fold(courseDecider, [
      enrolled,
      tutorChosen,
      credit('CourseCreditReserved', 'a'),
      credit('CourseCreditReserved', 'b'),
      credit('CourseCreditReleased', 'a'),
      credit('CourseCreditForfeited', 'b'),
    ]);
    expect(sessionsRemainingOf(state)).toBe(1);
    expect(state.used).toEqual(['b']);
  });
});
