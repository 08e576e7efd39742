/** The tutors feature's own words, for the routes' answers and the UI (through `@shared`). */

/** An approval refused because the applicant's address has meanwhile become an account's. */
export const APPLICANT_EMAIL_TAKEN = "An account already uses this applicant's e-mail address: it cannot become a tutor account";

/** The start of every answer about a calendar the weekly hours could not be read from or written to. */
export const AVAILABILITY_FETCH_FAILED = 'Failed to fetch availability';

/** Somebody other than the tutor (or an admin) asked for a tutor's calendar status. */
export const NOT_YOUR_CALENDAR = 'You can only see your own calendar';

/** A calendar provider's failure, in words the dashboard can show (its toast adds "Failed to fetch availability"). */
export const CALENDAR_NOT_ANSWERING = `${AVAILABILITY_FETCH_FAILED}: the calendar is not answering. Please try again shortly.`;
export const OWN_CALENDAR_NOT_CONNECTED = `${AVAILABILITY_FETCH_FAILED}: your calendar is not connected. Sign in with Google again to reconnect it.`;
export const CALENDAR_NEEDS_PERMISSION = `${AVAILABILITY_FETCH_FAILED}: Topmark needs permission to make changes to your calendar.`;
export const CALENDAR_NOT_SHARED = `${AVAILABILITY_FETCH_FAILED}: your calendar was not found or is not shared with Topmark.`;
export const CALENDAR_REFUSED = `${AVAILABILITY_FETCH_FAILED}: the calendar refused the request.`;

/** The calendar events routes on Google: the tutor keeps their calendar in Google. */
export const MANAGE_IN_GOOGLE = 'Manage your calendar events in Google Calendar';
