import type { TimeInterval } from '../../domain/calendar/availability.ts';
import type { HoursAndBusy } from '../../domain/calendar/calendarHours.ts';

/**
 * What tutors' calendars say about their time — the "Topmark Hours" instances and the busy
 * time — kept per process as short-lived snapshots.
 *
 * Why a snapshot and not a calendar call per booking: the booking target is ≥ 1,000 bookings/s
 * with p99 ≤ 50 ms (issue 11 "Benchmark"); a Google free/busy round trip alone takes 100–300 ms
 * and is rate-limited per user. The calendar is not what prevents double booking either: the
 * tutor's schedule stream is (one session per hour, decided on its revision). The calendar's busy
 * time is a soft constraint (a tutor may add a private event at any moment, and no transaction
 * spans Google and us), so reading it at most `ttlMs` old is the same guarantee a live read gives,
 * at a fraction of the cost. Each tutor's snapshot covers the whole bookable window (now − 1 h to
 * now + 31 days), is fetched by one request at a time (concurrent callers share it), and a
 * snapshot up to `staleMs` old is used while the calendar does not answer for a while
 * (`transient` failures: a timeout, a 5xx); never when the grant is gone, when the tutor must
 * act and their slots are withheld rather than guessed. Hours and busy time come from the same
 * listing, so the grid and the booking check always read one consistent picture.
 *
 * Several API processes each keep their own snapshots, so a snapshot is used only while the
 * calendar's shared revision (`calendar_revisions`, raised by every write through the calendar
 * port, in any process) is the one it was taken at: a busy event a tutor adds through Topmark
 * blocks its hour on every process at once. Only changes made in the provider's own UI wait for
 * the TTL.
 */
export interface CalendarSnapshotOptions {
  ttlMs?: number;
  staleMs?: number;
  now?: () => number;
  /** Failures after which an older snapshot may stand in (default: every failure). */
  transient?: (error: unknown) => boolean;
}

interface Snapshot {
  fetchedAt: number;
  /** The calendar's revision read before the fetch began. */
  revision: number;
  from: number;
  to: number;
  time: HoursAndBusy;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MAX_TUTORS = 10_000;

export class CalendarSnapshots {
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly inFlight = new Map<string, Promise<Snapshot>>();
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;
  private readonly transient: (error: unknown) => boolean;

  constructor(
    private readonly fetch: (tutorId: string, from: string, to: string) => Promise<HoursAndBusy>,
    private readonly revisionOf: (tutorId: string) => Promise<number>,
    options: CalendarSnapshotOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.staleMs = options.staleMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
    this.transient = options.transient ?? (() => true);
  }

  /** The tutor's hours instances and busy intervals that overlap [from, to). */
  async time(tutorId: string, from: string, to: string): Promise<HoursAndBusy> {
    const a = Date.parse(from);
    const b = Date.parse(to);
    const { time } = await this.snapshotCovering(tutorId, a, b);
    const overlapping = (i: TimeInterval) => Date.parse(i.start) < b && Date.parse(i.end) > a;
    return { hours: time.hours.filter(overlapping), busy: time.busy.filter(overlapping) };
  }

  private async snapshotCovering(tutorId: string, from: number, to: number): Promise<Snapshot> {
    const revision = await this.revisionOf(tutorId);
    const now = this.now();
    const held = this.snapshots.get(tutorId);
    const usable = (s: Snapshot | undefined, maxAgeMs: number): s is Snapshot =>
      s !== undefined && s.revision === revision && now - s.fetchedAt < maxAgeMs && s.from <= from && s.to >= to;
    if (usable(held, this.ttlMs)) return held;
    try {
      return await this.refresh(tutorId, revision, Math.min(from, now - HOUR_MS), Math.max(to, now + 31 * DAY_MS));
    } catch (error) {
      if (this.transient(error) && usable(held, this.staleMs)) return held;
      throw error;
    }
  }

  private refresh(tutorId: string, revision: number, from: number, to: number): Promise<Snapshot> {
    // Only a fetch begun at this revision may answer: one begun before a change would miss it.
    const flightKey = `${tutorId}\u0000${revision}`;
    const pending = this.inFlight.get(flightKey);
    if (pending !== undefined) return pending;
    const fetchedAt = this.now();
    const run = this.fetch(tutorId, new Date(from).toISOString(), new Date(to).toISOString())
      .then((time) => {
        const snapshot = { fetchedAt, revision, from, to, time };
        const held = this.snapshots.get(tutorId);
        if (held && held.revision > revision) return snapshot;
        if (this.snapshots.size >= MAX_TUTORS && !held) {
          const oldest = this.snapshots.keys().next().value;
          if (oldest !== undefined) this.snapshots.delete(oldest);
        }
        this.snapshots.delete(tutorId);
        this.snapshots.set(tutorId, snapshot);
        return snapshot;
      })
      .finally(() => this.inFlight.delete(flightKey));
    this.inFlight.set(flightKey, run);
    return run;
  }
}
