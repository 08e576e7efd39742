import { randomUUID } from 'node:crypto';
import { CalendarError, type PushChannel, type WatchableCalendar } from '../../adapters/calendar/calendarPort.ts';
import { calendarRevisions } from '../../adapters/calendar/calendarRevisions.ts';
import { type CalendarWatch, calendarWatches, channelTokens } from '../../adapters/calendar/calendarWatches.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { JobQueue, JobRequest } from '../../adapters/jobs/jobQueue.ts';
import { openTutorCalendar, type TutorCalendarDeps } from './tutorCalendar.ts';

/**
 * Calendars that stay in sync by themselves (Google): a push channel per tutor (`events.watch`),
 * renewed before it expires; every message Google POSTs to the webhook becomes a sync job for the
 * tutor; the job lists what changed since its sync token and, if anything did, raises the tutor's
 * calendar revision, so every process's busy-time snapshot of that calendar is refetched at once.
 * The 5-minute sweep runs the same job for every watched tutor (a lost message is noticed within
 * 5 minutes, and channels are renewed there). A refused grant is recorded at once (the alert and
 * the re-authorise banner, through `openTutorCalendar`) and raises the revision, so no process
 * keeps answering from the calendar it read before.
 */

/** One job per tutor at a time (a `stately` queue keyed by the tutor): pushes, sweeps and account events all send it. */
export const TUTOR_CALENDAR_SYNC_QUEUE = 'tutor-calendar-sync';
/** Where Google POSTs change messages: PUBLIC_URL + this. */
export const GOOGLE_CALENDAR_NOTIFICATIONS_PATH = '/api/google/calendar/notifications';

const DAY_MS = 86_400_000;
/** Asked of Google for each channel (it may give less). */
export const CHANNEL_TTL_MS = 7 * DAY_MS;
/** A channel expiring sooner than this is replaced (the sweep runs every 5 minutes: many chances). */
export const RENEW_WITHIN_MS = DAY_MS;
/** A full sync lists the events ending after now minus this (their changes are what hours and busy time read). */
const FULL_SYNC_LOOKBACK_MS = DAY_MS;

/** Google delivers change messages to https addresses only: without an https PUBLIC_URL there are no channels (the sweep still syncs). */
export function pushAddressOf(publicUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:') return null;
  return `${publicUrl.replace(/\/+$/, '')}${GOOGLE_CALENDAR_NOTIFICATIONS_PATH}`;
}

export interface TutorCalendarSyncJob {
  tutorId: string;
}

/** Sync jobs for these tutors; one already queued for a tutor absorbs the new one (no lost change: it has not listed yet). */
export async function enqueueCalendarSync(jobs: JobQueue, tutorIds: readonly string[]): Promise<void> {
  if (tutorIds.length === 0) return;
  await jobs.sendMany(tutorIds.map((tutorId) => calendarSyncJob(tutorId, randomUUID())));
}

export function calendarSyncJob(tutorId: string, id: string): JobRequest {
  return { queue: TUTOR_CALENDAR_SYNC_QUEUE, id, data: { tutorId } satisfies TutorCalendarSyncJob, singletonKey: tutorId };
}

// ---------------------------------------------------------------------------------------------
// The webhook's side

/** A message as Google sends it (headers only). */
export interface CalendarPush {
  channelId: string | undefined;
  token: string | undefined;
  resourceId: string | undefined;
  /** `sync` when the channel was just made, `exists` on a change, `not_exists` when the resource went away. */
  resourceState: string | undefined;
}

/**
 * `accepted`: a sync job is queued for the channel's tutor. `ignored`: a channel's first (`sync`)
 * message, nothing changed. `unauthorised`: no token, or not the one made for that channel id.
 * `unknown_channel`: signed by us but no longer live (replaced, forgotten, expired) or for another
 * resource. Only `accepted` changes anything.
 */
export type PushOutcome = 'accepted' | 'ignored' | 'unauthorised' | 'unknown_channel';

export async function acceptCalendarPush(deps: { sql: Sql; jobs: JobQueue }, push: CalendarPush, now: Date): Promise<PushOutcome> {
  // The token first: checked without a query, so forged messages cost no database work.
  if (!push.channelId || !push.token || !(await channelTokens(deps.sql).matches(push.channelId, push.token))) return 'unauthorised';
  // Sent as the channel is made, possibly before it is recorded: nothing to sync.
  if (push.resourceState === 'sync') return 'ignored';
  const channel = await calendarWatches(deps.sql).liveChannel(push.channelId, now);
  if (!channel || channel.resourceId !== push.resourceId) return 'unknown_channel';
  await enqueueCalendarSync(deps.jobs, [channel.tutorId]);
  return 'accepted';
}

/** The 5-minute safety net: a sync job for every watched tutor. */
export async function sweepCalendarWatches(deps: { sql: Sql; jobs: JobQueue }): Promise<number> {
  const tutorIds = await calendarWatches(deps.sql).tutorIds();
  await enqueueCalendarSync(deps.jobs, tutorIds);
  return tutorIds.length;
}

// ---------------------------------------------------------------------------------------------
// The job

export interface CalendarSyncDeps extends TutorCalendarDeps {
  sql: Sql;
  /** `pushAddressOf(PUBLIC_URL)`: null when Google cannot deliver (no https), then no channels are made. */
  pushAddress: string | null;
}

export type CalendarSyncOutcome =
  /** Something changed (or everything was listed again): the calendar's revision was raised. */
  | 'changed'
  | 'unchanged'
  /** The calendar has nothing to watch (the sandbox), or the account is not a tutor. */
  | 'not_applicable'
  /** No credentials for the calendar: nothing is watched until the tutor connects Google. */
  | 'not_connected'
  /** The grant was refused (`invalid_grant`): recorded, alerted, the revision raised; resumes when the tutor signs in again. */
  | 'access_lost'
  /** A failure only the tutor can mend (not shared, no access): recorded; the sweep tries again. */
  | 'failed';

const problemOf = (error: CalendarError) => ({ reason: error.reason, message: error.message });
const lostAccess = (error: unknown): error is CalendarError =>
  error instanceof CalendarError && (error.needsReauthorisation || error.reason === 'not_connected');

/**
 * Brings one tutor's watch up to date: the channel made (or renewed, before it expires: the new
 * one first, then the old one stopped), then the changes since the stored sync token listed (a
 * full listing without one, or when Google expired it); anything changed raises the calendar's
 * revision, then the new token is stored (a run that dies between the two lists the same changes
 * again). The channel comes first: a change made after it is pushed, one made before it is listed.
 * Provider outages are thrown (the queue retries); a refused grant is not retried.
 */
export async function syncTutorCalendar(deps: CalendarSyncDeps, tutorId: string): Promise<CalendarSyncOutcome> {
  const now = deps.clock.now();
  const watches = calendarWatches(deps.sql);
  const revisions = calendarRevisions(deps.sql);
  const opened = await openTutorCalendar(deps, tutorId);
  const watching = opened.calendar.watching;
  if (!watching || !opened.tutor.exists) return 'not_applicable';
  if (!opened.hasCredentials) {
    // Nothing to reach the calendar with (never connected, or the account was deleted): stop watching.
    const forgotten = await watches.forget(tutorId);
    if (forgotten?.syncToken || forgotten?.channelId) await revisions.changed(tutorId);
    return 'not_connected';
  }
  const watch = await watches.open(tutorId);
  try {
    const channelProblem = await ensureChannel(deps, watching, watch, now);
    const changes = await watching.changesSince(watch.syncToken, { from: new Date(now.getTime() - FULL_SYNC_LOOKBACK_MS).toISOString() });
    const changed = changes.changed > 0 || changes.fullSync;
    if (changed) await revisions.changed(tutorId);
    await watches.recordSync(tutorId, changes.syncToken, now, channelProblem);
    return changed ? 'changed' : 'unchanged';
  } catch (error) {
    if (lostAccess(error)) {
      // openTutorCalendar recorded TutorCalendarAccessLost (the alert, the banner) on this very call.
      // Readers must not go on answering from what they read before: raise the revision, once.
      if (await watches.recordAccessLost(tutorId, problemOf(error), now)) await revisions.changed(tutorId);
      return 'access_lost';
    }
    if (!(error instanceof CalendarError)) throw error;
    await watches.recordError(tutorId, problemOf(error), now);
    if (error.retryable) throw error;
    return 'failed';
  }
}

/**
 * The tutor's channel, live for at least RENEW_WITHIN_MS and at the current address; made or
 * renewed otherwise. A channel Google refuses (its reason is returned) leaves the sync to the
 * sweep; a refused grant is thrown.
 */
async function ensureChannel(
  deps: CalendarSyncDeps,
  watching: WatchableCalendar,
  watch: CalendarWatch,
  now: Date,
): Promise<{ reason: string; message: string } | null> {
  const watches = calendarWatches(deps.sql);
  const held = watch.channelId && watch.resourceId ? { id: watch.channelId, resourceId: watch.resourceId } : null;
  if (!deps.pushAddress) {
    // PUBLIC_URL is no longer https: Google cannot deliver, stop the old channel.
    if (held && (await watches.replaceChannel(watch.tutorId, held.id, null))) await stopQuietly(watching, held);
    return null;
  }
  const fresh =
    held !== null &&
    watch.channelAddress === deps.pushAddress &&
    watch.channelExpiresAt !== null &&
    watch.channelExpiresAt.getTime() - now.getTime() > RENEW_WITHIN_MS;
  if (fresh) return null;
  const id = randomUUID();
  let channel: PushChannel;
  try {
    channel = await watching.watch({
      id,
      token: await channelTokens(deps.sql).tokenFor(id),
      address: deps.pushAddress,
      expiresAt: new Date(now.getTime() + CHANNEL_TTL_MS),
    });
  } catch (error) {
    if (lostAccess(error) || !(error instanceof CalendarError)) throw error;
    return { reason: error.reason, message: `No push channel: ${error.message}` };
  }
  // Google does not always say; then the channel is treated as living as long as it was asked to.
  const expiresAt = channel.expiresAt ?? new Date(now.getTime() + CHANNEL_TTL_MS);
  if (await watches.replaceChannel(watch.tutorId, watch.channelId, { ...channel, expiresAt, address: deps.pushAddress })) {
    if (held) await stopQuietly(watching, held);
  } else {
    // Another run replaced the channel meanwhile: keep its, stop this one.
    await stopQuietly(watching, channel);
  }
  return null;
}

/** A channel that cannot be stopped expires by itself; its messages are refused meanwhile (no longer live). */
async function stopQuietly(watching: WatchableCalendar, channel: { id: string; resourceId: string }): Promise<void> {
  try {
    await watching.stopChannel(channel);
  } catch (error) {
    if (!(error instanceof CalendarError)) throw error;
  }
}
