import type { NoticeKind } from '../../domain/notices/noticesApi.ts';
import { jsonb, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/**
 * The bell's list (issue 22 §4): one row per notice per reader, from the events the e-mails come
 * from. No names or free text of anyone (the report, a reason) are copied here: titles and bodies
 * are made of subjects, amounts and counts, so an erased person leaves nothing in another's list.
 */
export const notices = table(
  'notices',
  {
    /** `<event id>:<reader id>`: a replayed event writes the same row. */
    id: text().primaryKey(),
    user_id: text(),
    kind: text<NoticeKind>(),
    title: text(),
    body: text(),
    link: text(),
    /** The session's start (shown in the reader's zone), and its previous start for a move. */
    at: timestamptz().nullable(),
    previous_at: timestamptz().nullable(),
    occurred_at: timestamptz(),
    read_at: timestamptz().nullable(),
  },
  { indexes: [{ name: 'notices_user_occurred', on: ['user_id', 'occurred_at'] }] },
);
export type NoticeRow = RowOf<typeof notices>;

/** What the notices need to remember of earlier events: whose a student is, a session's subject, a purchase's payer, a period's lines. */
export const noticeFacts = table(
  'notice_facts',
  {
    /** `student:<id>`, `session:<id>`, `purchase:<id>`, `payout:<stream id>`. */
    key: text().primaryKey(),
    /** The user the facts belong to (the family, the payer): erased with them. */
    user_id: text().nullable(),
    facts: jsonb<Record<string, unknown>>(),
  },
  { indexes: [{ name: 'notice_facts_user', on: ['user_id'] }] },
);
export type NoticeFactsRow = RowOf<typeof noticeFacts>;

/**
 * Per reader, their latest "mark all read" instant: a notice projected after it (a rebuild, or an
 * event that was committed earlier and read later) that occurred before it is read too.
 */
export const noticeReadMarks = table('notice_read_marks', {
  user_id: text().primaryKey(),
  up_to: timestamptz(),
  read_at: timestamptz(),
});

/** Deleted accounts: nothing is listed for them any more, even from a later event (a payout period paid after). */
export const noticeErasedUsers = table('notice_erased_users', { user_id: text().primaryKey(), erased_at: timestamptz() });
