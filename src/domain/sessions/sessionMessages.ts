/**
 * What the sessions API answers in words of its own (the decider's refusals live beside it in
 * sessionDecider.ts): shared with the UI, which shows them and its tests assert them.
 */

export const NOT_YOUR_SESSIONS = 'You can only see your own sessions';
export const ONLY_THE_TUTOR_COMPLETES = 'Only the session’s tutor can complete it';
export const SESSION_LENGTH = 'Sessions last 60 minutes';
export const CALENDAR_NOT_CONNECTED = 'Calendar Not Connected: this tutor’s calendar is not connected, so no times can be booked yet.';
/** The booking grid of a tutor whose calendar holds no "Topmark Hours" in the bookable window (the dashboard's "No Availability Set", spec part 2 §2). */
export const NO_AVAILABILITY_SET = 'No Availability Set: this tutor has not set their weekly hours yet.';
export const CALENDAR_UNAVAILABLE = 'The tutor’s calendar is not answering. Please try again shortly.';
export const ONLY_COMPLETING = 'Only completing a session is supported here';
