import type { Sql } from '../../adapters/db/db.ts';
import type { Notice, NoticeKind } from '../../domain/notices/noticesApi.ts';

/** How many notices the bell lists. */
export const NOTICE_LIST_LIMIT = 20;

interface Row {
  id: string;
  kind: NoticeKind;
  title: string;
  body: string;
  link: string;
  at: Date | null;
  previous_at: Date | null;
  occurred_at: Date;
  read_at: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The reader's latest notices, unread first then newest, and how many are unread in all. */
export async function noticesOf(sql: Sql, userId: string): Promise<{ notices: Notice[]; unread: number }> {
  const [rows, [count]] = await Promise.all([
    sql<Row[]>`
      SELECT id, kind, title, body, link, at, previous_at, occurred_at, read_at FROM notices
      WHERE user_id = ${userId}
      ORDER BY (read_at IS NULL) DESC, occurred_at DESC, id DESC
      LIMIT ${NOTICE_LIST_LIMIT}`,
    sql<{ n: number }[]>`SELECT count(*)::int AS n FROM notices WHERE user_id = ${userId} AND read_at IS NULL`,
  ]);
  return {
    notices: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      at: iso(r.at),
      previousAt: iso(r.previous_at),
      occurredAt: r.occurred_at.toISOString(),
      readAt: iso(r.read_at),
    })),
    unread: count?.n ?? 0,
  };
}

/** Which of these ids are the reader's own notices. */
export async function ownNoticeIds(sql: Sql, userId: string, ids: readonly string[]): Promise<Set<string>> {
  const rows = await sql<{ id: string }[]>`SELECT id FROM notices WHERE user_id = ${userId} AND id = ANY(${[...ids]}::text[])`;
  return new Set(rows.map((r) => r.id));
}

/** When the reader's newest notice occurred (what "mark all read" marks up to); null when they have none. */
export async function newestNoticeAt(sql: Sql, userId: string): Promise<string | null> {
  const [row] = await sql<{ at: Date | null }[]>`SELECT max(occurred_at) AS at FROM notices WHERE user_id = ${userId}`;
  return iso(row?.at ?? null);
}
