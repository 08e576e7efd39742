import type { TransactionSql } from '../../adapters/db/db.ts';
import {
  actorWords,
  bookedText,
  cancelledText,
  completedText,
  type NoticeSide,
  type NoticeText,
  payoutText,
  receiptText,
  refundText,
  rescheduledText,
} from '../../domain/notices/noticeTexts.ts';
import { defineProjection, type ProjectedEvent } from '../kit/defineProjection.ts';
import { deleteRows, insertRows } from '../kit/writes.ts';
import { type NoticeFactsRow, type NoticeRow, noticeErasedUsers, noticeFacts, noticeReadMarks, notices } from './tables.ts';

const handles = [
  'StudentProfileCreated',
  'StudentProfileErased',
  'SessionBooked',
  'SessionRescheduled',
  'SessionCancelled',
  'SessionCompleted',
  'PurchaseStarted',
  'PurchaseCompleted',
  'PurchaseRefunded',
  'PayoutPeriodApproved',
  'PayoutPeriodMarkedPaid',
  'NoticesRead',
  'AccountDeleted',
] as const;
type NoticeSourceEvent = ProjectedEvent<(typeof handles)[number]>;

/** Where every notice leads: the dashboard sends each role to its own. */
const DASHBOARD = '/dashboard';

interface SessionFacts {
  subjectName: string;
  durationMinutes: number;
  familyId: string;
  tutorId: string;
}
interface PurchaseFacts {
  purchasedBy: string;
  finalCents: number;
  sessionCount: number;
}
interface PayoutFacts {
  periodStart: string;
  periodEnd: string;
  /** Each tutor's sum of the period's lines, in cents. */
  byTutor: Record<string, number>;
}

/** The facts a batch's events look up (written by earlier events of this or an earlier batch). */
function factKeysOf(event: NoticeSourceEvent): string[] {
  switch (event.type) {
    case 'SessionBooked':
      return [`student:${event.data.studentId}`];
    case 'SessionRescheduled':
    case 'SessionCancelled':
    case 'SessionCompleted':
      return [`session:${event.data.sessionId}`];
    case 'PurchaseCompleted':
    case 'PurchaseRefunded':
      return [`purchase:${event.data.purchaseId}`];
    case 'PayoutPeriodMarkedPaid':
      return [`payout:${event.streamId}`];
    default:
      return [];
  }
}

/** One batch: the facts it reads and writes, the notices it makes, the reads and deletions it records. */
class NoticeBatch {
  readonly rows = new Map<string, NoticeRow>();
  readonly reads: Extract<NoticeSourceEvent, { type: 'NoticesRead' }>['data'][] = [];
  readonly erased = new Map<string, string>();
  readonly dirty = new Set<string>();

  constructor(readonly facts: Map<string, NoticeFactsRow | null>) {}

  factOf<T>(key: string): T | null {
    return (this.facts.get(key)?.facts as T | undefined) ?? null;
  }

  setFact(key: string, user_id: string | null, value: object | null) {
    this.dirty.add(key);
    this.facts.set(key, value ? { key, user_id, facts: value as Record<string, unknown> } : null);
  }

  add(event: NoticeSourceEvent, userId: string, text: NoticeText, at: string | null = null, previousAt: string | null = null) {
    const id = `${event.id}:${userId}`;
    this.rows.set(id, {
      id,
      user_id: userId,
      ...text,
      link: DASHBOARD,
      at,
      previous_at: previousAt,
      occurred_at: event.recordedAt.toISOString(),
      read_at: null,
    });
  }

  /** A session notice to both sides, each told who acted in their own words. */
  toBoth(
    event: NoticeSourceEvent,
    sessionId: string,
    text: (s: SessionFacts, side: NoticeSide, readerId: string) => NoticeText,
    at: string | null,
    previousAt: string | null = null,
  ) {
    const s = this.factOf<SessionFacts>(`session:${sessionId}`);
    if (!s) return;
    this.add(event, s.familyId, text(s, 'family', s.familyId), at, previousAt);
    this.add(event, s.tutorId, text(s, 'tutor', s.tutorId), at, previousAt);
  }

  sessionEvent(event: Extract<NoticeSourceEvent, { type: `Session${string}` }>) {
    switch (event.type) {
      case 'SessionBooked': {
        const d = event.data;
        // The family's account holder: the parent of a child's account, otherwise the student (as the e-mails).
        const familyId = this.factOf<{ familyId: string }>(`student:${d.studentId}`)?.familyId ?? d.studentUserId;
        const facts: SessionFacts = { subjectName: d.subjectName, durationMinutes: d.durationMinutes, familyId, tutorId: d.tutorId };
        this.setFact(`session:${d.sessionId}`, familyId, facts);
        const by = (side: NoticeSide, reader: string) => actorWords(d.bookedBy, d.bookedByRole, reader, side);
        return this.toBoth(
          event,
          d.sessionId,
          (s, side, reader) => bookedText(s.subjectName, s.durationMinutes, by(side, reader)),
          d.start,
        );
      }
      case 'SessionRescheduled': {
        const d = event.data;
        const by = (side: NoticeSide, reader: string) => actorWords(d.rescheduledBy, d.rescheduledByRole, reader, side);
        return this.toBoth(
          event,
          d.sessionId,
          (s, side, reader) => rescheduledText(s.subjectName, by(side, reader)),
          d.start,
          d.previousStart,
        );
      }
      case 'SessionCancelled': {
        const d = event.data;
        const by = (side: NoticeSide, reader: string) => actorWords(d.cancelledBy, d.cancelledByRole, reader, side);
        return this.toBoth(
          event,
          d.sessionId,
          (s, side, reader) => cancelledText(s.subjectName, by(side, reader), d.credit, side),
          d.start,
        );
      }
      case 'SessionCompleted':
        // A completion has no new time: the notice shows none.
        return this.toBoth(event, event.data.sessionId, (s, side) => completedText(s.subjectName, side), null);
    }
  }

  moneyEvent(event: Extract<NoticeSourceEvent, { type: `Purchase${string}` | `PayoutPeriod${string}` }>) {
    switch (event.type) {
      case 'PurchaseStarted': {
        const d = event.data;
        return this.setFact(`purchase:${d.purchaseId}`, d.purchasedBy, {
          purchasedBy: d.purchasedBy,
          finalCents: d.finalCents,
          sessionCount: d.sessionCount,
        });
      }
      case 'PurchaseCompleted': {
        const p = this.factOf<PurchaseFacts>(`purchase:${event.data.purchaseId}`);
        return p && this.add(event, p.purchasedBy, receiptText(p.finalCents, p.sessionCount));
      }
      case 'PurchaseRefunded': {
        const p = this.factOf<PurchaseFacts>(`purchase:${event.data.purchaseId}`);
        return p && this.add(event, p.purchasedBy, refundText(event.data.amountCents, event.data.creditsRemoved));
      }
      case 'PayoutPeriodApproved': {
        const byTutor: Record<string, number> = {};
        for (const line of event.data.lines) byTutor[line.tutorId] = (byTutor[line.tutorId] ?? 0) + line.amountCents;
        return this.setFact(`payout:${event.streamId}`, null, {
          periodStart: event.data.periodStart,
          periodEnd: event.data.periodEnd,
          byTutor,
        });
      }
      case 'PayoutPeriodMarkedPaid': {
        const p = this.factOf<PayoutFacts>(`payout:${event.streamId}`);
        if (!p) return;
        for (const [tutorId, cents] of Object.entries(p.byTutor))
          if (cents > 0) this.add(event, tutorId, payoutText(cents, p.periodStart, p.periodEnd));
      }
    }
  }

  apply(event: NoticeSourceEvent) {
    switch (event.type) {
      case 'StudentProfileCreated': {
        const familyId = event.data.parentId ?? event.data.userId;
        return this.setFact(`student:${event.data.studentId}`, familyId, { familyId });
      }
      case 'StudentProfileErased':
        return this.setFact(`student:${event.data.studentId}`, null, null);
      case 'NoticesRead':
        return this.reads.push(event.data);
      case 'AccountDeleted':
        return this.erased.set(event.data.userId, event.data.at);
      case 'SessionBooked':
      case 'SessionRescheduled':
      case 'SessionCancelled':
      case 'SessionCompleted':
        return this.sessionEvent(event);
      default:
        return this.moneyEvent(event);
    }
  }
}

async function writeFacts(tx: TransactionSql, batch: NoticeBatch) {
  const dirty = [...batch.dirty];
  await deleteRows(
    tx,
    noticeFacts,
    'key',
    dirty.filter((key) => !batch.facts.get(key)),
  );
  await insertRows(
    tx,
    noticeFacts,
    dirty.flatMap((key) => batch.facts.get(key) ?? []),
    'update',
  );
}

async function writeNotices(tx: TransactionSql, written: NoticeRow[]) {
  if (written.length === 0) return;
  // Nothing is listed for a deleted account, even from an event after its deletion.
  const readers = [...new Set(written.map((r) => r.user_id))];
  const erased = new Set(
    (await tx<{ user_id: string }[]>`SELECT user_id FROM notice_erased_users WHERE user_id = ANY(${readers}::text[])`).map(
      (r) => r.user_id,
    ),
  );
  await insertRows(
    tx,
    notices,
    written.filter((r) => !erased.has(r.user_id)),
    'nothing',
  );
  // A new notice that occurred before the reader's last "mark all read" is read already.
  await tx`
    UPDATE notices n SET read_at = m.read_at FROM notice_read_marks m
    WHERE n.user_id = m.user_id AND n.read_at IS NULL AND n.occurred_at <= m.up_to AND n.id = ANY(${written.map((r) => r.id)}::text[])`;
}

async function writeReads(tx: TransactionSql, reads: NoticeBatch['reads']) {
  for (const { userId, noticeIds, upTo, at } of reads) {
    if (upTo) {
      await tx`UPDATE notices SET read_at = ${at} WHERE user_id = ${userId} AND read_at IS NULL AND occurred_at <= ${upTo}`;
      await tx`
        INSERT INTO notice_read_marks (user_id, up_to, read_at) VALUES (${userId}, ${upTo}, ${at})
        ON CONFLICT (user_id) DO UPDATE SET up_to = EXCLUDED.up_to, read_at = EXCLUDED.read_at
        WHERE notice_read_marks.up_to < EXCLUDED.up_to`;
    }
    // Only the reader's own notices: an id of someone else's marks nothing.
    if (noticeIds.length > 0)
      await tx`UPDATE notices SET read_at = ${at} WHERE user_id = ${userId} AND read_at IS NULL AND id = ANY(${noticeIds}::text[])`;
  }
}

async function writeErasures(tx: TransactionSql, erased: Map<string, string>) {
  if (erased.size === 0) return;
  const users = [...erased.keys()];
  await deleteRows(tx, notices, 'user_id', users);
  await deleteRows(tx, noticeFacts, 'user_id', users);
  await deleteRows(tx, noticeReadMarks, 'user_id', users);
  await insertRows(
    tx,
    noticeErasedUsers,
    [...erased].map(([user_id, erased_at]) => ({ user_id, erased_at })),
    'nothing',
  );
}

/**
 * The bell's notices (issue 22 §4, docs/sessions-calendar.md "In-app notices"): one row per notice
 * per reader, from the events the e-mail sagas mail from, to the same readers (the family's account
 * holder and the tutor; the payer; each tutor paid). Its own look-ups (whose a student is, a
 * session's subject, a purchase's payer) live in its own table, so a rebuild needs no other read
 * model. Read state comes from `NoticesRead` events, so a rebuild keeps it; a deleted account's
 * notices and facts go, and nothing is listed for it afterwards.
 */
export const noticesProjector = defineProjection({
  name: 'notices',
  handles,
  tables: [notices, noticeFacts, noticeReadMarks, noticeErasedUsers],
  async apply(tx, events) {
    const keys = [...new Set(events.flatMap(factKeysOf))];
    const facts = new Map<string, NoticeFactsRow | null>();
    if (keys.length > 0)
      for (const row of await tx<NoticeFactsRow[]>`SELECT key, user_id, facts FROM notice_facts WHERE key = ANY(${keys}::text[])`)
        facts.set(row.key, row);
    const batch = new NoticeBatch(facts);
    for (const event of events) batch.apply(event);
    await writeFacts(tx, batch);
    await writeNotices(tx, [...batch.rows.values()]);
    await writeReads(tx, batch.reads);
    await writeErasures(tx, batch.erased);
  },
});
