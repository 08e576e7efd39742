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

/** A mail kept instead of sent, opened for reading ("[erased]" where its subject's key is gone). */
export interface KeptMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  sentAt: Date;
}

/** Where kept mail is read back (the dev mailbox): only a mailer that keeps mail has one. */
export interface Mailbox {
  list(options?: { to?: string; limit?: number }): Promise<KeptMail[]>;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
  readonly mailbox?: Mailbox;
}
