export interface OutgoingMail {
  /** Stable id of this message: sending the same id twice delivers once where the transport allows. */
  id: string;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
}
