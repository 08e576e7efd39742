import type { NoticeKind } from './noticesApi.ts';

/**
 * The words of the bell's notices: short, with no names or free text of anyone (a report, a reason
 * or a name could outlive the person it belongs to), times left to the reader's screen (the list
 * shows `at` in the reader's zone).
 */

export type NoticeSide = 'family' | 'tutor';

export interface NoticeText {
  kind: NoticeKind;
  title: string;
  body: string;
}

/** Integer cents as dollars to the cent: 12345 → "$123.45". */
export const noticeDollars = (cents: number): string =>
  `${cents < 0 ? '-' : ''}$${Math.floor(Math.abs(cents) / 100).toLocaleString('en-US')}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

const credits = (n: number) => `${n} session credit${n === 1 ? '' : 's'}`;

/** Who acted, as this reader reads it. */
export function actorWords(byId: string, byRole: string, readerId: string, side: NoticeSide): string {
  if (byId === readerId) return 'you';
  if (byRole === 'admin') return 'a Topmark administrator';
  if (byRole === 'tutor') return side === 'family' ? 'your tutor' : 'the tutor';
  if (byRole === 'parent') return "the student's parent";
  if (byRole === 'student' || byRole === 'student_secondary') return 'the student';
  return 'Topmark';
}

export function bookedText(subject: string, minutes: number, by: string): NoticeText {
  return { kind: 'sessionBooked', title: `Session booked: ${subject}`, body: `Booked by ${by}: ${minutes} minutes, online.` };
}

export function rescheduledText(subject: string, by: string): NoticeText {
  return { kind: 'sessionRescheduled', title: `Session moved: ${subject}`, body: `Moved to a new time by ${by}.` };
}

export function cancelledText(subject: string, by: string, credit: 'released' | 'forfeited', side: NoticeSide): NoticeText {
  const what =
    credit === 'released'
      ? side === 'family'
        ? 'The session credit is back in your course.'
        : 'The family gets the session credit back.'
      : side === 'family'
        ? 'Under the 12-hour rule the session counts as used.'
        : 'Under the 12-hour rule it counts as taught and is paid to you.';
  return { kind: 'sessionCancelled', title: `Session cancelled: ${subject}`, body: `Cancelled by ${by}. ${what}` };
}

export function completedText(subject: string, side: NoticeSide): NoticeText {
  return side === 'family'
    ? {
        kind: 'sessionCompleted',
        title: `Session report: ${subject}`,
        body: "The session is completed: your tutor's report is on your dashboard.",
      }
    : {
        kind: 'sessionCompleted',
        title: `Session completed: ${subject}`,
        body: 'The session is marked completed; the family has your report.',
      };
}

export function receiptText(paidCents: number, sessionCount: number): NoticeText {
  return {
    kind: 'receipt',
    // A free order (a 100% promo code) was not a payment: the title says so, as the e-mail does.
    title: paidCents > 0 ? `Payment received: ${noticeDollars(paidCents)}` : 'Order confirmed: nothing charged',
    body: `${credits(sessionCount)} added to your course. Your receipt was e-mailed to you.`,
  };
}

export function refundText(amountCents: number, creditsRemoved: number): NoticeText {
  return {
    kind: 'refund',
    title: `Refund: ${noticeDollars(amountCents)}`,
    body:
      creditsRemoved > 0
        ? `${credits(creditsRemoved)} removed from your course. The details were e-mailed to you.`
        : 'No session credits were removed. The details were e-mailed to you.',
  };
}

export function payoutText(cents: number, periodStart: string, periodEnd: string): NoticeText {
  return { kind: 'payout', title: `Payout sent: ${noticeDollars(cents)}`, body: `Your pay for ${periodStart} to ${periodEnd}.` };
}
