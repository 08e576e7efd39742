import type { CommandContext } from '../kit/commandContext.ts';
import type { TutorHandlers } from './tutorHandlers.ts';

/** An admin sets a tutor's hourly rate from `effectiveFrom` (default: now) with a reason; the tutor stream records it. */
export function changeTutorRate(
  handlers: TutorHandlers,
  input: { tutorId: string; hourlyRateCents: number; effectiveFrom: Date | null; reason: string },
  ctx: CommandContext,
) {
  const { tutorId, hourlyRateCents, reason } = input;
  return handlers.tutors.handle(
    tutorId,
    { type: 'ChangeTutorRate', data: { tutorId, hourlyRateCents, reason, effectiveFrom: input.effectiveFrom ?? ctx.now } },
    ctx,
  );
}
