import { z } from 'zod';

/** The calendar sync card's calls and Send Invite (spec part 2 §3 "Sync status", §7), shared by the server and the UI. */
export const syncStatusSchema = z.object({
  totalSessions: z.number().int(),
  syncedSessions: z.number().int(),
  failedSessions: z.number().int(),
  pendingSessions: z.number().int(),
  lastSyncTime: z.string().nullable(),
});
export type SyncStatus = z.output<typeof syncStatusSchema>;

export const syncCalendarAnswerSchema = z.object({
  success: z.boolean(),
  updatedSessions: z.number().int(),
  errors: z.array(z.object({ sessionId: z.string(), message: z.string() })),
});

export const sendInviteAnswerSchema = z.object({ success: z.literal(true), meetingLink: z.string().nullable() });
