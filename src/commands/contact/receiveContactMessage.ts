import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { contactStreamId } from '../../domain/contact/contact.ts';
import { contactDecider, type HelpMessage } from '../../domain/contact/contactDecider.ts';
import type { ContactMessageInput } from '../../domain/contact/contactMessage.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

export const contactHandler = (store: EventStore) => commandHandler(store, contactDecider, contactStreamId);
export type ContactHandlers = ReturnType<typeof contactHandler>;

/** The message id derives from the command id, so a retried submission lands on the same stream. */
export async function receiveContactMessage(store: EventStore, message: ContactMessageInput, ctx: CommandContext) {
  const contactId = deterministicUuid(`contact/${ctx.commandId}`);
  const result = await contactHandler(store).handle(
    contactId,
    { type: 'ReceiveContactMessage', data: { contactId, message, senderUserId: ctx.actorId } },
    ctx,
    { expectNewStream: true },
  );
  return { contactId, ...result };
}

/**
 * A help message from the student area (POST /api/contact/help): a contact message on its own
 * stream like any other (sealed, erased with the sender's account, mailed by the contact saga),
 * marked as sent from the Help dialog with the student it is about.
 */
export async function receiveHelpMessage(store: EventStore, help: HelpMessage, senderUserId: string, ctx: CommandContext) {
  const contactId = deterministicUuid(`contact/${ctx.commandId}`);
  const result = await contactHandler(store).handle(
    contactId,
    { type: 'ReceiveHelpMessage', data: { contactId, help, senderUserId } },
    ctx,
    { expectNewStream: true },
  );
  return { contactId, ...result };
}

export function recordContactMailSent(
  store: EventStore,
  contactId: string,
  kind: 'confirmation' | 'support',
  mailId: string,
  ctx: CommandContext,
) {
  return contactHandler(store).handle(contactId, { type: 'RecordContactMailSent', data: { contactId, kind, mailId } }, ctx);
}
