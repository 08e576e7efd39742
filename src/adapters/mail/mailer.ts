/** A file sent with a mail: a session's calendar file (`text/calendar; charset=utf-8; method=REQUEST`). */
export interface MailAttachment {
  filename: string;
  /** The MIME type with its parameters; a calendar file names its iTIP method (`method=REQUEST|CANCEL`). */
  contentType: string;
  /** The file's text. */
  content: string;
}

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
  /** Files sent with it (text only). Kept with the mail, their names and contents sealed like the body. */
  attachments?: readonly MailAttachment[];
}

/** A mail kept instead of sent, opened for reading ("[erased]" where its subject's key is gone). */
export interface KeptMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  /** Its files, in the order sent: types as they were, names and contents "[erased]" once the key is gone. */
  attachments: MailAttachment[];
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
