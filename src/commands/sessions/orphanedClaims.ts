import type { HeldHour } from '../../domain/sessions/tutorSchedule.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { stepOf } from '../kit/processStep.ts';
import type { CourseLedger } from './ports.ts';
import { SCHEDULE_ATTEMPTS, type SessionHandlers } from './sessionHandlers.ts';

/** A claim older than this whose session was never recorded was left by a request that died between its steps. */
export const ORPHAN_CLAIM_MS = 5 * 60_000;

/**
 * Gives back an hour a booking claimed and the credit it reserved, when the booking never recorded
 * its session (its request died between the steps and no retry came). Step ids derive from the
 * session, so the sweep and a booker repairing the same claim release it once.
 */
export async function giveBackClaim(
  handlers: SessionHandlers,
  release: CourseLedger['release'],
  claim: { tutorId: string; sessionId: string; courseId?: string | undefined },
  ctx: CommandContext,
): Promise<void> {
  const repair = stepOf(ctx);
  await handlers.schedules.handle(
    claim.tutorId,
    { type: 'ReleaseHour', data: { tutorId: claim.tutorId, sessionId: claim.sessionId, reason: 'compensation' } },
    repair(`orphan-hour/${claim.sessionId}`),
    { maxAttempts: SCHEDULE_ATTEMPTS },
  );
  if (claim.courseId) await release(claim.courseId, claim.sessionId, repair(`orphan-credit/${claim.sessionId}`));
}

/** Whether a claim is old enough to count as left behind (claims recorded without a time never are). */
const oldEnough = (holder: HeldHour, now: Date) => holder.at !== undefined && Date.parse(holder.at) <= now.getTime() - ORPHAN_CLAIM_MS;

const neverBooked = async (handlers: SessionHandlers, sessionId: string) => !(await handlers.sessions.load(sessionId)).booked;

/** Whether `holder` is a claim left behind: old enough, and its session never booked. */
export async function isOrphaned(handlers: SessionHandlers, sessionId: string, holder: HeldHour, now: Date): Promise<boolean> {
  return oldEnough(holder, now) && (await neverBooked(handlers, sessionId));
}

export type OrphanSweepOutcome = 'released' | 'booked' | 'gone' | 'too-young';

/**
 * The sweep for one claim (run a little after `ORPHAN_CLAIM_MS`, by the sessions saga): a claim
 * that is still held by the same claim, whose session was never booked, is given back, so an hour
 * nobody else asks for does not stay blocked and the course's credit comes back.
 */
export async function sweepClaim(
  handlers: SessionHandlers,
  release: CourseLedger['release'],
  claim: { tutorId: string; sessionId: string; at: string },
  ctx: CommandContext,
): Promise<OrphanSweepOutcome> {
  const holder = (await handlers.schedules.load(claim.tutorId)).held[claim.sessionId];
  // Released meanwhile, or claimed again (a retried request or a reschedule): not this claim any more.
  if (!holder || holder.at !== claim.at) return 'gone';
  if (!oldEnough(holder, ctx.now)) return 'too-young';
  if (!(await neverBooked(handlers, claim.sessionId))) return 'booked';
  await giveBackClaim(handlers, release, { tutorId: claim.tutorId, sessionId: claim.sessionId, courseId: holder.courseId }, ctx);
  return 'released';
}
