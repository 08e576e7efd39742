import { calendarFeedEvents } from './calendarFeed.ts';
import { sessionEvents } from './session.ts';
import { sessionCalendarEvents } from './sessionCalendar.ts';
import { tutorScheduleEvents } from './tutorSchedule.ts';

/** Every event type of the sessions feature: a session's life and the tutor schedules that hold hours. */
export const sessionFeatureEvents = { ...sessionEvents, ...sessionCalendarEvents, ...tutorScheduleEvents, ...calendarFeedEvents };
