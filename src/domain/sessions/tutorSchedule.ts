import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * A tutor's schedule (stream `tutorSchedule-<tutorId>`): which session holds which hour. Every
 * booking and reschedule claims its hour here with the revision it read, so two requests for one
 * hour race on this stream's revision and exactly one of them wins; the other is decided again on
 * the new state and refused. No hour is ever checked against a read model.
 */

export const SLOT_TAKEN = 'This time slot is no longer available. Please choose another time.';

const heldHour = z.object({
  tutorId: z.string(),
  sessionId: z.string(),
  start: z.string(),
  end: z.string(),
  /** The course whose credit the booking reserves next (lets a claim left by a crashed request be given back in full). */
  courseId: z.string().optional(),
  at: z.string(),
});
export const tutorHourReleased = heldHour.extend({ reason: z.enum(['cancelled', 'rescheduled', 'compensation']) });

export const tutorScheduleEvents = {
  /** The session holds the hour (a session claiming another hour gives its previous one up: a reschedule). */
  TutorHourClaimed: eventType(heldHour, { describe: () => 'Tutor hour claimed by a session' }),
  TutorHourReleased: eventType(tutorHourReleased, { describe: (d) => `Tutor hour released (${d.reason})` }),
};
export type TutorScheduleEvent = EventsOf<typeof tutorScheduleEvents>;

export interface HeldHour {
  start: string;
  end: string;
  /** When it was claimed, and for which course (claims recorded before these were kept have neither). */
  at?: string;
  courseId?: string;
}
export interface TutorScheduleState {
  /** Hours held now, by session. */
  held: Record<string, HeldHour>;
}
export const initialTutorScheduleState: TutorScheduleState = { held: {} };

export function evolveTutorSchedule(state: TutorScheduleState, event: TutorScheduleEvent): TutorScheduleState {
  switch (event.type) {
    case 'TutorHourClaimed':
      return {
        held: {
          ...state.held,
          [event.data.sessionId]: { start: event.data.start, end: event.data.end, at: event.data.at, courseId: event.data.courseId },
        },
      };
    case 'TutorHourReleased': {
      const { [event.data.sessionId]: _released, ...held } = state.held;
      return { held };
    }
    default:
      return state;
  }
}

export const tutorScheduleStreamId = (tutorId: string) => `tutorSchedule-${tutorId}`;

/**
 * An hour's bounds in epoch milliseconds, parsed once per held-hour object: states share their
 * hours (evolve copies the map, not the hours), and a claim compares against every hour held.
 */
const boundsOfHour = new WeakMap<HeldHour, { start: number; end: number }>();
function boundsOf(hour: HeldHour): { start: number; end: number } {
  let bounds = boundsOfHour.get(hour);
  if (!bounds) {
    bounds = { start: Date.parse(hour.start), end: Date.parse(hour.end) };
    boundsOfHour.set(hour, bounds);
  }
  return bounds;
}

const overlaps = (a: HeldHour, b: HeldHour) => {
  const x = boundsOf(a);
  const y = boundsOf(b);
  return x.start < y.end && y.start < x.end;
};

/** Whether two hours overlap (touching edges do not). */
export const hoursOverlap = overlaps;

/** Hours held by sessions other than `sessionId` (what the slot grid subtracts). */
export const hoursHeldByOthers = (state: TutorScheduleState, sessionId: string | null = null): HeldHour[] =>
  Object.entries(state.held)
    .filter(([id]) => id !== sessionId)
    .map(([, hour]) => hour);

/** The sessions holding hours that overlap [start, end), other than `sessionId`. */
export const holdersOverlapping = (state: TutorScheduleState, hour: HeldHour, sessionId: string): ({ sessionId: string } & HeldHour)[] =>
  Object.entries(state.held)
    .filter(([id, held]) => id !== sessionId && overlaps(held, hour))
    .map(([id, held]) => ({ sessionId: id, ...held }));
