import type { TimeInterval } from '../../domain/calendar/availability.ts';

/**
 * Busy time of tutors' calendars, kept per process as short-lived snapshots.
 *
 * Why a snapshot and not a calendar call per booking: the booking target is ≥ 1,000 bookings/s
 * with p99 ≤ 50 ms (issue 11 "Benchmark"); a Google free/busy round trip alone takes 100–300 ms
 * and is rate-limited per user. The calendar is not what prevents double booking either: the
 * tutor's schedule stream is (one session per hour, decided on its revision). The calendar's busy
 * time is a soft constraint (a tutor may add a private event at any moment, and no transaction
 * spans Google and us), so reading it at most `ttlMs` old is the same guarantee a live read gives,
 * at a fraction of the cost. Each tutor's snapshot covers the whole bookable window (now − 1 h to
 * now + 31 days), is fetched by one request at a time (concurrent callers share it), and a
 * snapshot up to `staleMs` old is used while the calendar does not answer.
 */
export interface BusySnapshotOptions {
  ttlMs?: number;
  staleMs?: number;
  now?: () => number;
}

interface Snapshot {
  fetchedAt: number;
  from: number;
  to: number;
  intervals: TimeInterval[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MAX_TUTORS = 10_000;

export class BusySnapshots {
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly inFlight = new Map<string, Promise<Snapshot>>();
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;

  constructor(
    private readonly fetch: (tutorId: string, from: string, to: string) => Promise<TimeInterval[]>,
    options: BusySnapshotOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.staleMs = options.staleMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Busy intervals of the tutor overlapping [from, to). */
  async busy(tutorId: string, from: string, to: string): Promise<TimeInterval[]> {
    const a = Date.parse(from);
    const b = Date.parse(to);
    const snapshot = await this.snapshotCovering(tutorId, a, b);
    return snapshot.intervals.filter((i) => Date.parse(i.start) < b && Date.parse(i.end) > a);
  }

  /** Forget a tutor's snapshot (their calendar changed through Topmark). */
  invalidate(tutorId: string): void {
    this.snapshots.delete(tutorId);
  }

  private async snapshotCovering(tutorId: string, from: number, to: number): Promise<Snapshot> {
    const now = this.now();
    const held = this.snapshots.get(tutorId);
    const covers = (s: Snapshot) => s.from <= from && s.to >= to;
    if (held && now - held.fetchedAt < this.ttlMs && covers(held)) return held;
    try {
      return await this.refresh(tutorId, Math.min(from, now - HOUR_MS), Math.max(to, now + 31 * DAY_MS));
    } catch (error) {
      if (held && now - held.fetchedAt < this.staleMs && covers(held)) return held;
      throw error;
    }
  }

  private refresh(tutorId: string, from: number, to: number): Promise<Snapshot> {
    const pending = this.inFlight.get(tutorId);
    if (pending !== undefined) return pending;
    const fetchedAt = this.now();
    const run = this.fetch(tutorId, new Date(from).toISOString(), new Date(to).toISOString())
      .then((intervals) => {
        const snapshot = { fetchedAt, from, to, intervals };
        if (this.snapshots.size >= MAX_TUTORS && !this.snapshots.has(tutorId)) {
          const oldest = this.snapshots.keys().next().value;
          if (oldest !== undefined) this.snapshots.delete(oldest);
        }
        this.snapshots.delete(tutorId);
        this.snapshots.set(tutorId, snapshot);
        return snapshot;
      })
      .finally(() => this.inFlight.delete(tutorId));
    this.inFlight.set(tutorId, run);
    return run;
  }
}
