import type { Sql } from '../db/db.ts';
import { ERASED, PersonalDataVault, SEALED_PREFIX } from '../personalData/personalDataVault.ts';
import type { KeptMail, MailAttachment, Mailbox, Mailer, OutgoingMail } from './mailer.ts';

export type OutboxEntry = KeptMail;

interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  attachments: MailAttachment[] | null;
  sent_at: Date;
}

/**
 * Mail kept in PostgreSQL instead of sent: the default with no SMTP server, read by `mail:list`
 * and the dev mailbox. A mail that names its data subject is kept sealed with that subject's key
 * (recipient, subject line, body, and each attachment's name and content; its type stays
 * readable), so erasing the person erases the kept copy: it then lists as "[erased]". When the key is already gone (the person was erased while the mail was on its
 * way) nothing readable is kept at all.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  readonly mailbox: Mailbox = { list: (options) => listOutbox(this.sql, options) };

  constructor(
    private readonly sql: Sql,
    private readonly onSent: (mail: OutgoingMail) => void = () => {},
    private readonly vault: PersonalDataVault = new PersonalDataVault(sql),
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    const files = mail.attachments ?? [];
    let kept = [mail.to, mail.subject, mail.text, ...files.flatMap((f) => [f.filename, f.content])];
    if (mail.dataSubject) kept = (await this.vault.sealWithExistingKey(mail.dataSubject, kept)) ?? kept.map(() => ERASED);
    const [recipient, subject, body] = kept;
    const attachments = files.map((f, i) => ({
      filename: kept[3 + 2 * i] ?? '',
      contentType: f.contentType,
      content: kept[4 + 2 * i] ?? '',
    }));
    const inserted = await this.sql`
      INSERT INTO mail_outbox (id, recipient, subject, body, attachments)
      VALUES (${mail.id}, ${recipient ?? ''}, ${subject ?? ''}, ${body ?? ''}, ${this.sql.json(attachments)})
      ON CONFLICT (id) DO NOTHING RETURNING id`;
    if (inserted.length > 0) this.onSent(mail);
  }
}

/** Kept mail, newest first, opened with their subjects' keys ("[erased]" once a key is gone). */
export async function listOutbox(sql: Sql, options: { to?: string; limit?: number } = {}): Promise<OutboxEntry[]> {
  const limit = options.limit ?? 100;
  const vault = new PersonalDataVault(sql);
  const open = async (rows: OutboxRow[]): Promise<OutboxEntry[]> => {
    const sealed = rows
      .flatMap((r) => [r.recipient, r.subject, r.body, ...(r.attachments ?? []).flatMap((f) => [f.filename, f.content])])
      .filter((v) => PersonalDataVault.isEncrypted(v));
    const plain = sealed.length > 0 ? await vault.decryptAll(sealed) : new Map<string, string>();
    const read = (v: string) => (PersonalDataVault.isEncrypted(v) ? (plain.get(v) ?? ERASED) : v);
    return rows.map((r) => ({
      id: r.id,
      to: read(r.recipient),
      subject: read(r.subject),
      text: read(r.body),
      attachments: (r.attachments ?? []).map((f) => ({ filename: read(f.filename), contentType: f.contentType, content: read(f.content) })),
      sentAt: r.sent_at,
    }));
  };
  const to = options.to;
  if (!to) return open(await sql<OutboxRow[]>`SELECT * FROM mail_outbox ORDER BY sent_at DESC, id LIMIT ${limit}`);
  // A sealed recipient can only be compared once opened: plain rows are filtered by the database,
  // sealed ones page by page here (a dev mailbox stays small).
  const out: OutboxEntry[] = [];
  const page = 500;
  for (let offset = 0; out.length < limit; offset += page) {
    const rows = await sql<OutboxRow[]>`
      SELECT * FROM mail_outbox
      WHERE lower(recipient) = lower(${to}) OR starts_with(recipient, ${SEALED_PREFIX})
      ORDER BY sent_at DESC, id LIMIT ${page} OFFSET ${offset}`;
    for (const entry of await open(rows)) if (entry.to.toLowerCase() === to.toLowerCase()) out.push(entry);
    if (rows.length < page) break;
  }
  return out.slice(0, limit);
}
