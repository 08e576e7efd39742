import { z } from 'zod';
import { supportedDay, supportedInstant, supportedLocalDateTime } from '../kit/supportedDates.ts';
import { timeZoneField } from '../kit/timeZones.ts';
import { sessionStatuses } from './session.ts';

/** The sessions API's bodies and answers (spec part 2 §3, §7), shared by the server and the UI. */

const id = z.string().min(1).max(100);
const NOTES_MAX = 2000;
export const DATE_FORMAT = 'Use a date as yyyy-MM-dd';
export const NEW_DATE_FORMAT = "newDate must be a local time as yyyy-MM-dd'T'HH:mm";
/** A calendar day of the supported years (src/domain/kit/supportedDates.ts), as the booking grid and the availability routes take it. */
export const bookingDay = supportedDay({ format: DATE_FORMAT, label: 'date' });
const hhMm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time as HH:mm');

/** POST /api/book-session (spec part 2 §3 "Booking payload"). */
export const bookSessionBody = z.object({
  tutorId: id,
  studentCourseId: id,
  /** The start as an ISO timestamp with its offset (or Z). */
  date: supportedInstant({ format: 'date must be an ISO timestamp', label: 'date' }),
  duration: z.literal(60, { message: 'Sessions last 60 minutes' }).default(60),
  notes: z.string().max(NOTES_MAX).nullish(),
});
export type BookSessionBody = z.output<typeof bookSessionBody>;

/** POST /api/sessions/book-with-calendar: date, start and end in New York time (spec part 2 §7). */
export const bookWithCalendarBody = z.object({
  tutorId: id,
  studentId: id,
  purchaseId: id,
  date: bookingDay,
  startTime: hhMm,
  endTime: hhMm,
  subject: z.string().max(200).nullish(),
  notes: z.string().max(NOTES_MAX).nullish(),
});

/** GET /api/tutors/{id}/available-slots?date= : the booking grid in New York time. */
/**
 * GET /api/tutors/{id}/available-slots entries: the spec's `time` ("HH:mm", New York), and the
 * slot's instant and label — on the fall-back night 01:00 comes twice, as "01:00 EDT" and "01:00 EST".
 */
export const bookingSlotSchema = z.object({ time: z.string(), start: z.string(), label: z.string() });
/** GET /api/tutors/{tutorId}/availability/{date}. */
export const dayAvailabilitySchema = z.object({ slots: z.array(z.object({ start: z.string(), end: z.string() })) });
/** GET /api/tutors/{tutorId}/reschedule-availability/{date}. */
export const rescheduleAvailabilitySchema = z.object({ slots: z.array(z.object({ start: z.string() })) });

export const sessionStatusSchema = z.enum(sessionStatuses);

/** GET /api/sessions/tutor/{tutorId} entries (spec part 2 §3 "Tutor session"). */
export const tutorSessionSchema = z.object({
  id: z.string(),
  tutorId: z.string(),
  studentId: z.string(),
  student: z.object({ firstName: z.string(), lastName: z.string() }),
  subject: z.object({ id: z.string(), name: z.string() }),
  /** The start, ISO (UTC). */
  date: z.string(),
  duration: z.number().int(),
  status: sessionStatusSchema,
  notes: z.string().nullable(),
  meetingLink: z.string().nullable(),
  googleCalendarEventId: z.string().nullable(),
});
export type TutorSession = z.output<typeof tutorSessionSchema>;

/** A student's session (spec part 2 §3 "Student session", the dashboard's lists). */
export const studentSessionSchema = z.object({
  id: z.string(),
  courseId: z.string(),
  tutorId: z.string(),
  date: z.string(),
  duration: z.number().int(),
  status: sessionStatusSchema,
  subject: z.object({ id: z.string(), name: z.string() }),
  tutor: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
  meetingLink: z.string().nullable(),
  notes: z.string().nullable(),
});
export type StudentSession = z.output<typeof studentSessionSchema>;

/** POST /api/sessions/{id}/cancel. */
export const cancelSessionBody = z.object({ reason: z.string().max(NOTES_MAX).nullish() });
/** PATCH /api/sessions/{id}/complete. */
export const completeSessionBody = z.object({ completed: z.boolean().default(true), notes: z.string().max(NOTES_MAX).nullish() });
/**
 * PATCH /api/sessions/{id}/reschedule: the new start as local yyyy-MM-ddTHH:mm in `timezone`, and
 * optionally the slot's instant (`start`, as the reschedule grid gives it): where the clock repeats
 * (the fall-back night) a local time alone means the earlier hour; `start` says which one, and must
 * be that local time in that zone.
 */
export const rescheduleSessionBody = z.object({
  newDate: supportedLocalDateTime({ format: NEW_DATE_FORMAT, label: 'newDate' }),
  start: supportedInstant({ format: 'start must be an ISO timestamp', label: 'start' }).optional(),
  updateCalendar: z.boolean().default(true),
  timezone: timeZoneField().nullish(),
});

export const START_NOT_NEW_DATE = 'start must be the instant of newDate in the time zone';
