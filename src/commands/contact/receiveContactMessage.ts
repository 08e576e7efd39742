import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { contactDecider } from '../../domain/contact/contactDecider.ts';
import { contactStreamId } from '../../domain/contact/contactEvents.ts';
import type { ContactMessageInput } from '../../domain/contact/contactMessage.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { handleCommand } from '../kit/handleCommand.ts';

/** The message id derives from the command id, so a retried submission lands on the same stream. */
export async function receiveContactMessage(store: EventStore, message: ContactMessageInput, ctx: CommandContext) {
  const contactId = deterministicUuid(`contact/${ctx.commandId}`);
  const result = await handleCommand(
    store,
    contactDecider,
    contactStreamId(contactId),
    { type: 'ReceiveContactMessage', contactId, message, now: ctx.now },
    ctx,
    { expectNewStream: true },
  );
  return { contactId, ...result };
}

export async function recordContactMailSent(
  store: EventStore,
  contactId: string,
  kind: 'confirmation' | 'support',
  mailId: string,
  ctx: CommandContext,
) {
  return handleCommand(
    store,
    contactDecider,
    contactStreamId(contactId),
    { type: 'RecordContactMailSent', contactId, kind, mailId, now: ctx.now },
    ctx,
  );
}
