import type { Sql } from '../../adapters/db/db.ts';

export interface CalendarSyncSummary {
  totalSessions: number;
  syncedSessions: number;
  failedSessions: number;
  pendingSessions: number;
  lastSyncTime: string | null;
}

/**
 * The calendar sync card (spec part 2 §2–§3 "Sync status"): the tutor's sessions that are still to
 * come, by the state of their calendar event, and when an event of theirs was last written.
 */
export async function calendarSyncSummary(sql: Sql, tutorId: string, now: Date = new Date()): Promise<CalendarSyncSummary> {
  const [row] = await sql<{ total: string; synced: string; failed: string; pending: string; last: Date | null }[]>`
    SELECT count(*) FILTER (WHERE status = 'scheduled' AND end_at > ${now}) AS total,
      count(*) FILTER (WHERE status = 'scheduled' AND end_at > ${now} AND calendar_sync_status = 'synced') AS synced,
      count(*) FILTER (WHERE status = 'scheduled' AND end_at > ${now} AND calendar_sync_status = 'failed') AS failed,
      count(*) FILTER (WHERE status = 'scheduled' AND end_at > ${now} AND calendar_sync_status = 'pending') AS pending,
      max(calendar_synced_at) AS last
    FROM sessions WHERE tutor_id = ${tutorId}`;
  return {
    totalSessions: Number(row?.total ?? 0),
    syncedSessions: Number(row?.synced ?? 0),
    failedSessions: Number(row?.failed ?? 0),
    pendingSessions: Number(row?.pending ?? 0),
    lastSyncTime: row?.last ? new Date(row.last).toISOString() : null,
  };
}
