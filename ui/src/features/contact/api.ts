import { contactCreatedSchema } from '@shared/contact/contactApi.ts';
import type { ContactMessageInput } from '@shared/contact/contactMessage.ts';
import { api } from '../../app/api.ts';

/** The contact API (spec part 1 §7). A retry with the same idempotency key sends the message once. */
export const contactApi = {
  send: (message: ContactMessageInput, idempotencyKey: string) =>
    api.send('POST', '/api/contact', message, contactCreatedSchema, { headers: { 'Idempotency-Key': idempotencyKey } }),
};
