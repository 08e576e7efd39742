import { type CommandContext, deterministicUuid } from './commandContext.ts';

/**
 * A step of a process that spans streams (registration, deletion, Google sign-in): its command
 * id derives from the process's and the step's name, so a retried request replays the same steps
 * and appends nothing twice, and every event of the process carries the request as its cause.
 */
export const stepOf =
  (ctx: CommandContext) =>
  (name: string): CommandContext => ({
    ...ctx,
    commandId: deterministicUuid(`${ctx.commandId}/${name}`),
    causationId: ctx.commandId,
  });

/**
 * Runs `next` after a claim; when `next` fails, the claim is given back (compensation) and the
 * original error is rethrown. A failing compensation is not swallowed: both errors surface.
 */
export async function compensating<T>(next: () => Promise<T>, compensate: () => Promise<unknown>): Promise<T> {
  try {
    return await next();
  } catch (error) {
    try {
      await compensate();
    } catch (compensationError) {
      throw new AggregateError([error, compensationError], 'A step failed and giving back what it had claimed failed too');
    }
    throw error;
  }
}
