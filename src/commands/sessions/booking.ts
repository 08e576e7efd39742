import { DEFAULT_TIMEZONE } from '../../domain/accounts/accountPolicy.ts';
import { COURSE_ENDED, COURSE_NOT_FOUND, NO_SESSIONS_REMAINING, TUTOR_NOT_CHOSEN } from '../../domain/courses/courseDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { isSupportedEpochMs } from '../../domain/kit/supportedDates.ts';
import { defaultNotes, SESSION_MINUTES, type SessionBookedData } from '../../domain/sessions/session.ts';
import { holdersOverlapping, SLOT_TAKEN } from '../../domain/sessions/tutorSchedule.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { compensating, stepOf } from '../kit/processStep.ts';
import { retriedClaim } from '../kit/retriedClaim.ts';
import { bookableHour } from './bookableHour.ts';
import { giveBackClaim, isOrphaned } from './orphanedClaims.ts';
import type { SessionPorts } from './ports.ts';
import { SCHEDULE_ATTEMPTS, type SessionHandlers, sessionIdFor } from './sessionHandlers.ts';

export const NOT_THIS_COURSES_TUTOR = 'This tutor does not teach this course. Book with the tutor chosen for the course.';
export const NOT_THIS_STUDENTS_COURSE = 'This course belongs to another student';
export const START_NOT_AN_INSTANT = 'The session start must be a date and time';

/**
 * Claims the hour; when another session's claim holds it but that session was never booked and the
 * claim is older than `ORPHAN_CLAIM_MS` (its request died between the steps and was not retried),
 * that claim and the credit it reserved are given back and the hour claimed again. A request that
 * is retried later finds its claims gone and claims again (`retriedClaim`).
 */
async function claimWithRepair(
  handlers: SessionHandlers,
  ports: SessionPorts,
  ctx: CommandContext,
  claim: { tutorId: string; sessionId: string; start: string; end: string; courseId: string; slotFree: boolean },
) {
  const run = () => handlers.schedules.handle(claim.tutorId, { type: 'ClaimHour', data: claim }, ctx, { maxAttempts: SCHEDULE_ATTEMPTS });
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError) || error.message !== SLOT_TAKEN || !claim.slotFree) throw error;
    const state = await handlers.schedules.load(claim.tutorId);
    const holders = holdersOverlapping(state, claim, claim.sessionId);
    // Nobody holds it any more (the sweep gave the claim back meanwhile): claim it again.
    let repaired = holders.length === 0;
    for (const holder of holders) {
      if (!(await isOrphaned(handlers, holder.sessionId, holder, ctx.now))) continue;
      await giveBackClaim(handlers, ports.courses.release, { tutorId: claim.tutorId, ...holder }, ctx);
      repaired = true;
    }
    if (!repaired) throw error;
    return run();
  }
}

export interface BookingRequest {
  tutorId: string;
  courseId: string;
  /** The student the caller books for (the route checked the caller may). */
  studentId: string;
  studentUserId: string;
  studentTimeZone: string | null;
  subjectName: string;
  /** The start, any ISO instant. */
  start: string;
  notes: string | null | undefined;
}

/**
 * Books a session: the tutor's hour, then the course's credit, then the session. The hour is
 * claimed on the tutor's schedule stream (the race between students for one hour is decided
 * there: one wins, the others get 409 "This time slot is no longer available"), the credit on the
 * course's ledger (a course never lends more credits than it holds), and the session records what
 * was booked. Each step's command id derives from the request's, so a retried request replays the
 * same steps; a step that fails gives back what the steps before it took (no credit reserved
 * without a session, no hour held without one).
 *
 * A process that dies between steps leaves its claim until the same request is retried (same
 * Idempotency-Key: the steps replay and finish), another booking asks for the hour, or the
 * sessions saga's sweep (`sweepClaim`, `ORPHAN_CLAIM_MS` after the claim) gives it back.
 */
export async function bookSession(handlers: SessionHandlers, ports: SessionPorts, request: BookingRequest, ctx: CommandContext) {
  const startMs = Date.parse(request.start);
  if (!isSupportedEpochMs(startMs)) throw new DomainError(START_NOT_AN_INSTANT, 'invalid');
  const start = new Date(startMs).toISOString();
  const end = new Date(startMs + SESSION_MINUTES * 60_000).toISOString();

  const course = await ports.courses.course(request.courseId);
  if (!course.exists) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
  if (course.studentId !== request.studentId) throw new DomainError(NOT_THIS_STUDENTS_COURSE, 'forbidden');
  if (course.status === 'inactive') throw new DomainError(COURSE_ENDED, 'conflict');
  if (!course.tutorId) throw new DomainError(TUTOR_NOT_CHOSEN, 'conflict');
  if (course.tutorId !== request.tutorId) throw new DomainError(NOT_THIS_COURSES_TUTOR, 'conflict');
  if (course.sessionsRemaining < 1) throw new DomainError(NO_SESSIONS_REMAINING, 'conflict');

  const { free: slotFree, tutorTimeZone } = await bookableHour(ports, request.tutorId, start, ctx.now);

  const sessionId = sessionIdFor(ctx.commandId);
  const step = stepOf(ctx);
  const booked: Omit<SessionBookedData, 'at'> = {
    sessionId,
    tutorId: request.tutorId,
    studentId: request.studentId,
    studentUserId: request.studentUserId,
    courseId: request.courseId,
    subjectId: course.subjectId ?? '',
    subjectName: request.subjectName,
    start,
    end,
    durationMinutes: SESSION_MINUTES,
    notes: defaultNotes(request.notes, request.subjectName),
    bookedBy: ctx.actorId ?? 'system',
    bookedByRole: ctx.actorRole ?? 'system',
    tutorTimeZone,
    studentTimeZone: request.studentTimeZone ?? DEFAULT_TIMEZONE,
  };

  const hour = await retriedClaim(
    step,
    'claim-hour',
    (c) =>
      claimWithRepair(handlers, ports, c, {
        tutorId: request.tutorId,
        sessionId,
        start,
        end,
        courseId: request.courseId,
        slotFree,
      }),
    async () => (await handlers.schedules.load(request.tutorId)).held[sessionId]?.start === start,
  );
  return compensating(
    async () => {
      const credit = await retriedClaim(
        step,
        'reserve-credit',
        (c) => ports.courses.reserve(request.courseId, sessionId, c),
        async () => await ports.courses.holds(request.courseId, sessionId),
      );
      return compensating(
        () => handlers.sessions.handle(sessionId, { type: 'BookSession', data: booked }, step('book'), { expectNewStream: true }),
        () => ports.courses.release(request.courseId, sessionId, step(`release-credit${credit.suffix}`)),
      );
    },
    () =>
      handlers.schedules.handle(
        request.tutorId,
        { type: 'ReleaseHour', data: { tutorId: request.tutorId, sessionId, reason: 'compensation' } },
        step(`release-hour${hour.suffix}`),
        { maxAttempts: SCHEDULE_ATTEMPTS },
      ),
  ).then((result) => ({ ...result, sessionId }));
}
