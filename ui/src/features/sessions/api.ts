import { bookingSlotSchema, rescheduleAvailabilitySchema, studentSessionSchema, tutorSessionSchema } from '@shared/sessions/sessionApi.ts';
import { tutorListEntrySchema } from '@shared/tutors/tutorApi.ts';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../app/api.ts';

/**
 * Sessions (spec part 2 §7 "Sessions"): the booking grid, booking, cancelling, and moving a
 * session (the one client of the tutor's and the family's reschedule dialog). Answers are read through `@shared/sessions/sessionApi.ts`.
 */

const enc = encodeURIComponent;

/** A fresh key per attempt: a retried request is answered once (the server's Idempotency-Key). */
const idempotencyKey = () => ({ headers: { 'Idempotency-Key': crypto.randomUUID() } });

export const cancelAnswerSchema = z.object({
  id: z.string(),
  status: z.literal('cancelled'),
  /** released: the credit came back; forfeited: the session counts as used (the 12-hour rule). */
  credit: z.enum(['released', 'forfeited']).nullable(),
});
export type CancelAnswer = z.output<typeof cancelAnswerSchema>;

export const sessionKeys = {
  /** Everything this feature reads (invalidated after a change). */
  all: ['sessions'] as const,
  tutor: (tutorId: string) => ['sessions', 'tutor', tutorId] as const,
  slots: (tutorId: string, date: string) => ['sessions', 'available-slots', tutorId, date] as const,
  rescheduleSlots: (tutorId: string, date: string, sessionId: string, zone: string) =>
    ['sessions', 'reschedule-availability', tutorId, date, { sessionId, zone }] as const,
};

export const sessionsApi = {
  /** GET /api/tutors/{id} (the booking dialog's step 1). */
  tutor: (tutorId: string) => api.get(`/api/tutors/${enc(tutorId)}`, tutorListEntrySchema),
  /** GET /api/tutors/{id}/available-slots?date=yyyy-MM-dd → [{time: "HH:mm"}] New York time. */
  slots: (tutorId: string, date: string) =>
    api.get(`/api/tutors/${enc(tutorId)}/available-slots?date=${enc(date)}`, z.array(bookingSlotSchema)),
  /** POST /api/book-session {tutorId, studentCourseId, date (ISO), duration: 60, notes}. */
  book: (body: { tutorId: string; studentCourseId: string; date: string; notes: string }) =>
    api.send('POST', '/api/book-session', { ...body, duration: 60 }, studentSessionSchema, idempotencyKey()),
  /** POST /api/sessions/{id}/cancel {reason}. */
  cancel: (sessionId: string, reason: string) =>
    api.send('POST', `/api/sessions/${enc(sessionId)}/cancel`, { reason }, cancelAnswerSchema, idempotencyKey()),
  /** GET /api/tutors/{tutorId}/reschedule-availability/{date}?excludeSessionId=&timezone= (starts in `zone`). */
  rescheduleSlots: (tutorId: string, date: string, sessionId: string, zone: string) =>
    api.get(
      `/api/tutors/${enc(tutorId)}/reschedule-availability/${enc(date)}?excludeSessionId=${enc(sessionId)}&timezone=${enc(zone)}`,
      rescheduleAvailabilitySchema,
    ),
  /** PATCH /api/sessions/{id}/reschedule {newDate (local yyyy-MM-ddTHH:mm), start (the slot's instant: which of a repeated hour), updateCalendar, timezone}. */
  reschedule: (sessionId: string, newDate: string, start: string, timezone: string) =>
    api.send(
      'PATCH',
      `/api/sessions/${enc(sessionId)}/reschedule`,
      { newDate, start, updateCalendar: true, timezone },
      tutorSessionSchema,
      idempotencyKey(),
    ),
};

/**
 * After a booking, cancellation or move: the dashboards (student and parent), the courses
 * (remaining credits), the student info pages and this feature's slots read again.
 */
export function useSessionChangeRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['/api/student/dashboard'] }),
      queryClient.invalidateQueries({ queryKey: ['/api/student'] }),
      queryClient.invalidateQueries({ queryKey: ['/api/student/info'] }),
      queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
    ]);
}
