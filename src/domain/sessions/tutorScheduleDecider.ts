import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  evolveTutorSchedule,
  hoursHeldByOthers,
  hoursOverlap,
  initialTutorScheduleState,
  SLOT_TAKEN,
  type TutorScheduleEvent,
  type TutorScheduleState,
} from './tutorSchedule.ts';

type HourRef = { tutorId: string; sessionId: string };
export type TutorScheduleCommand =
  /**
   * `slotFree`: the hour is one of the tutor's free slots as the command layer computed it
   * (weekly hours, the calendar's busy time, now); other sessions' hours are checked here.
   */
  | Command<'ClaimHour', HourRef & { start: string; end: string; courseId?: string; slotFree: boolean }>
  | Command<'ReleaseHour', HourRef & { reason: 'cancelled' | 'rescheduled' | 'compensation' }>;

export const decideTutorSchedule = decideWith<TutorScheduleCommand, TutorScheduleEvent, TutorScheduleState>({
  ClaimHour: ({ data, metadata: { now } }, state) => {
    const mine = state.held[data.sessionId];
    if (mine && Date.parse(mine.start) === Date.parse(data.start) && Date.parse(mine.end) === Date.parse(data.end)) return [];
    if (!(Date.parse(data.end) > Date.parse(data.start))) throw new DomainError('A session must end after it starts', 'invalid');
    const taken = hoursHeldByOthers(state, data.sessionId).some((h) => hoursOverlap(h, data));
    if (taken || !data.slotFree) throw new DomainError(SLOT_TAKEN, 'conflict');
    return [
      {
        type: 'TutorHourClaimed',
        data: {
          tutorId: data.tutorId,
          sessionId: data.sessionId,
          start: data.start,
          end: data.end,
          ...(data.courseId === undefined ? {} : { courseId: data.courseId }),
          at: now.toISOString(),
        },
      },
    ];
  },
  // Releasing what the session does not hold changes nothing (a compensation, a repeated cancel).
  ReleaseHour: ({ data, metadata: { now } }, state) => {
    const mine = state.held[data.sessionId];
    if (!mine) return [];
    return [
      {
        type: 'TutorHourReleased',
        data: {
          tutorId: data.tutorId,
          sessionId: data.sessionId,
          reason: data.reason,
          start: mine.start,
          end: mine.end,
          ...(mine.courseId === undefined ? {} : { courseId: mine.courseId }),
          at: now.toISOString(),
        },
      },
    ];
  },
});

export const tutorScheduleDecider: Decider<TutorScheduleCommand, TutorScheduleEvent, TutorScheduleState> = {
  initialState: initialTutorScheduleState,
  evolve: evolveTutorSchedule,
  decide: decideTutorSchedule,
};
