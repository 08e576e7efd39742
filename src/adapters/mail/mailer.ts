export interface OutgoingMail {
  /** Stable id of this message: sending the same id twice delivers once where the transport allows. */
  id: string;
  to: string;
  /** The e-mail's subject line. */
  subject: string;
  text: string;
  /**
   * Whose personal data the message carries: the data subject id whose key seals it where it is
   * kept (`user-<id>`, `contact-<id>`), so that erasing that person erases the kept copy too.
   * Without it, a kept mail is stored as it is.
   */
  dataSubject?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
}
