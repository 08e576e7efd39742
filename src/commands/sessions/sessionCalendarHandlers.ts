import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { sessionCalendarStreamId } from '../../domain/sessions/sessionCalendar.ts';
import { sessionCalendarDecider } from '../../domain/sessions/sessionCalendarDecider.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The calendar side of sessions (stream `sessionCalendar-<id>`): what the calendar saga observed. */
export function sessionCalendarHandlers(store: EventStore) {
  return { calendars: commandHandler(store, sessionCalendarDecider, sessionCalendarStreamId) };
}
export type SessionCalendarHandlers = ReturnType<typeof sessionCalendarHandlers>;
