import type { CommandContext } from './commandContext.ts';

/**
 * A claim step of a process whose request may be retried after a compensation gave the claim
 * back. Step command ids derive from the request's, so the retried claim would be answered from
 * the stream ("already handled") although what it claimed was released since: the process would go
 * on without holding anything. So an already-handled claim is checked against the stream's state
 * (`holds`), and when it no longer holds, the claim is made again under the next step name; its
 * compensation uses the same suffix, so each round is given back at most once.
 */
export async function retriedClaim<T extends { alreadyHandled: boolean }>(
  step: (name: string) => CommandContext,
  name: string,
  claim: (ctx: CommandContext) => Promise<T>,
  holds: () => Promise<boolean>,
): Promise<{ result: T; suffix: string }> {
  for (let round = 0; round < 10; round += 1) {
    const suffix = round === 0 ? '' : `-${round}`;
    const result = await claim(step(`${name}${suffix}`));
    if (!result.alreadyHandled || (await holds())) return { result, suffix };
  }
  throw new Error(`${name}: claimed and given back too many times for one request`);
}
