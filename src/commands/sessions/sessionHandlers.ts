import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { sessionStreamId } from '../../domain/sessions/session.ts';
import { sessionDecider } from '../../domain/sessions/sessionDecider.ts';
import { tutorScheduleStreamId } from '../../domain/sessions/tutorSchedule.ts';
import { tutorScheduleDecider } from '../../domain/sessions/tutorScheduleDecider.ts';
import { deterministicUuid } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The command handlers of the sessions feature: a session (`session-<id>`) and a tutor's schedule (`tutorSchedule-<tutorId>`). */
export function sessionHandlers(store: EventStore) {
  return {
    sessions: commandHandler(store, sessionDecider, sessionStreamId),
    schedules: commandHandler(store, tutorScheduleDecider, tutorScheduleStreamId),
  };
}
export type SessionHandlers = ReturnType<typeof sessionHandlers>;

/** A booking's session id derives from the request's command id: a retried request (same Idempotency-Key) is the same session. */
export const sessionIdFor = (commandId: string) => deterministicUuid(`session/${commandId}`);

/**
 * A tutor's schedule is a hot stream when many students book one tutor at once: a lost race
 * re-reads and decides again (a taken hour is then refused at once), so allow more rounds than
 * the default before answering "someone else changed this".
 */
export const SCHEDULE_ATTEMPTS = 25;
