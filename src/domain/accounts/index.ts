import { reservationEvents } from './reservation.ts';
import { studentEvents } from './student.ts';
import { tutorApplicationEvents } from './tutorApplication.ts';
import { userEvents } from './user.ts';
import { userActivityEvents } from './userActivity.ts';

/** Every event type of the accounts feature, aggregate by aggregate. */
export const accountEvents = { ...userEvents, ...userActivityEvents, ...reservationEvents, ...studentEvents, ...tutorApplicationEvents };
