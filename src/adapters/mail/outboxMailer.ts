import type { Sql } from '../db/db.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  sentAt: Date;
}

/** Mail kept in PostgreSQL instead of sent: the default with no SMTP server, read by `mail:list`. */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;

  constructor(
    private readonly sql: Sql,
    private readonly onSent: (mail: OutgoingMail) => void = () => {},
  ) {}

  static async migrate(sql: Sql): Promise<void> {
    await sql.unsafe(`
      CREATE TABLE IF NOT EXISTS mail_outbox (
        id         text PRIMARY KEY,
        recipient  text NOT NULL,
        subject    text NOT NULL,
        body       text NOT NULL,
        sent_at    timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS mail_outbox_recipient ON mail_outbox (lower(recipient), sent_at DESC);`);
  }

  async send(mail: OutgoingMail): Promise<void> {
    const inserted = await this.sql`
      INSERT INTO mail_outbox (id, recipient, subject, body) VALUES (${mail.id}, ${mail.to}, ${mail.subject}, ${mail.text})
      ON CONFLICT (id) DO NOTHING RETURNING id`;
    if (inserted.length > 0) this.onSent(mail);
  }
}

export async function listOutbox(sql: Sql, options: { to?: string; limit?: number } = {}): Promise<OutboxEntry[]> {
  const limit = options.limit ?? 100;
  const rows = options.to
    ? await sql<{ id: string; recipient: string; subject: string; body: string; sent_at: Date }[]>`
        SELECT * FROM mail_outbox WHERE lower(recipient) = lower(${options.to}) ORDER BY sent_at DESC LIMIT ${limit}`
    : await sql<{ id: string; recipient: string; subject: string; body: string; sent_at: Date }[]>`
        SELECT * FROM mail_outbox ORDER BY sent_at DESC LIMIT ${limit}`;
  return rows.map((r) => ({ id: r.id, to: r.recipient, subject: r.subject, text: r.body, sentAt: r.sent_at }));
}
