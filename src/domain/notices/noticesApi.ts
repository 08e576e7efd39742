import { z } from 'zod';
import { MAX_READ_IDS, optionalNoticeKinds } from './notices.ts';

/** One flag per optional notice kind: true when it is mailed. */
const preferenceFlags = Object.fromEntries(optionalNoticeKinds.map((k) => [k, z.boolean()])) as Record<
  (typeof optionalNoticeKinds)[number],
  z.ZodBoolean
>;

/** `GET /api/account/notification-settings`: every optional kind, and the kinds always mailed. */
export const notificationSettingsSchema = z.object({
  email: z.object(preferenceFlags),
  /** Always mailed whatever the settings: receipts, refunds, payouts, application decisions. */
  alwaysSent: z.array(z.string()),
});

/** `PUT /api/account/notification-settings`: the kinds to change (any subset); an unknown key is a 400. */
export const notificationSettingsUpdateSchema = z.object({ email: z.object(preferenceFlags).partial().strict() }).strict();

export const noticeKinds = [
  'sessionBooked',
  'sessionRescheduled',
  'sessionCancelled',
  'sessionCompleted',
  'receipt',
  'refund',
  'payout',
  'applicationDecision',
] as const;
export type NoticeKind = (typeof noticeKinds)[number];

export const noticeSchema = z.object({
  id: z.string(),
  kind: z.enum(noticeKinds),
  title: z.string(),
  body: z.string(),
  /** The page the notice is about, a path of this site. */
  link: z.string(),
  /** The session's start (and, for a move, its previous start), shown in the reader's zone. */
  at: z.string().nullable(),
  previousAt: z.string().nullable(),
  occurredAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notice = z.output<typeof noticeSchema>;

/** `GET /api/notices`: the latest 20, unread first then newest, and how many are unread in all. */
export const noticeListSchema = z.object({ notices: z.array(noticeSchema), unread: z.number().int() });

/** `POST /api/notices/read`: every notice, or the given ones (the caller's own). */
export const markNoticesReadSchema = z.union([
  z.object({ all: z.literal(true) }).strict(),
  z.object({ ids: z.array(z.string().min(1).max(200)).min(1).max(MAX_READ_IDS) }).strict(),
]);
