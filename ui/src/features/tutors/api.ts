import { timezoneResponseSchema } from '@shared/accounts/accountApi.ts';
import { tutorSessionSchema } from '@shared/sessions/sessionApi.ts';
import { sendInviteAnswerSchema, syncCalendarAnswerSchema, syncStatusSchema } from '@shared/sessions/sessionCalendarApi.ts';
import type { Qualification } from '@shared/subjects/qualifications.ts';
import { type Subject, subjectSchema } from '@shared/subjects/subjectApi.ts';
import type { CalendarEventRequest } from '@shared/tutors/calendarEventForm.ts';
import { calendarEventListSchema, calendarEventSchema } from '@shared/tutors/calendarEventsApi.ts';
import {
  availabilityEntrySchema,
  calendarStatusSchema,
  dashboardStatsSchema,
  pictureUploadSchema,
  tutorListEntrySchema,
  tutorProfileSchema,
  tutorSubjectSchema,
} from '@shared/tutors/tutorApi.ts';
import { z } from 'zod';
import { api, apiRequest, jsonQuery } from '../../app/api.ts';

/**
 * The tutors API (spec part 2 §7; contract in `@shared/tutors/tutorApi.ts`): every answer is read
 * through its zod schema. A tutor's id is their profile id (GET /api/tutor/profile `id`).
 */

/** GET /api/subjects (the public catalogue). */
export const catalogSubjectSchema = subjectSchema;
export type CatalogSubject = Subject;

/** Writes whose answer the UI does not read beyond success. */
const anyAnswer = z.unknown();

export interface WeeklyHoursRow {
  dayOfWeek: number;
  startTime: string;
  endTime: string;
}

const enc = encodeURIComponent;

export const tutorKeys = {
  profile: ['/api/tutor/profile'] as const,
  subjects: ['/api/subjects'] as const,
  mySubjects: ['/api/tutor/subjects'] as const,
  availability: ['/api/tutor/availability'] as const,
  stats: ['/api/tutor/dashboard-stats'] as const,
  calendarStatus: (tutorId: string) => ['/api/tutor', tutorId, 'calendar-status'] as const,
  /** Every listing and event of the tutor's calendar (invalidate this after a change). */
  calendarEvents: ['/api/tutor/calendar/events'] as const,
  calendarWeek: (from: string, to: string) => ['/api/tutor/calendar/events', { from, to }] as const,
  calendarEvent: (id: string) => ['/api/tutor/calendar/events', id] as const,
  directory: (subjectId: string, gradeLevel: string) => ['/api/tutors', { subjectId, gradeLevel }] as const,
  sessions: (tutorId: string) => ['/api/sessions/tutor', tutorId] as const,
  syncStatus: (tutorId: string) => ['/api/tutor', tutorId, 'sync-status'] as const,
};

/** A fresh key per attempt: a retried request is answered once (the server's Idempotency-Key). */
const idempotencyKey = () => ({ headers: { 'Idempotency-Key': crypto.randomUUID() } });

export const tutorsApi = {
  profile: jsonQuery('/api/tutor/profile', tutorProfileSchema),
  subjects: jsonQuery('/api/subjects', z.array(catalogSubjectSchema)),
  mySubjects: jsonQuery('/api/tutor/subjects', z.array(tutorSubjectSchema)),
  availability: jsonQuery('/api/tutor/availability', z.array(availabilityEntrySchema)),
  stats: jsonQuery('/api/tutor/dashboard-stats', dashboardStatsSchema),
  calendarStatus: (tutorId: string) => api.get(`/api/tutor/${enc(tutorId)}/calendar-status`, calendarStatusSchema),

  changeName: (firstName: string, lastName: string) =>
    api.send('PATCH', '/api/user/name', { firstName: firstName.trim(), lastName: lastName.trim() }, anyAnswer),
  changeTimezone: (timezone: string) => api.send('PATCH', '/api/user/timezone', { timezone }, timezoneResponseSchema),
  editProfile: (tutorId: string, body: { bio?: string; experience?: number | null }) =>
    api.send('PUT', `/api/tutors/${enc(tutorId)}`, body, anyAnswer),
  /** The three steps of a picture change: ask where to upload, PUT the bytes there, record it. */
  async uploadPicture(file: File): Promise<void> {
    const { uploadURL } = await api.send('POST', '/api/tutor/profile-picture/upload', undefined, pictureUploadSchema);
    const res = await fetch(uploadURL, {
      method: 'PUT',
      credentials: 'include',
      headers: { 'Content-Type': file.type || 'application/octet-stream' },
      body: file,
    });
    if (!res.ok) {
      const text = (await res.text().catch(() => '')) || res.statusText;
      throw new UploadError(`${res.status}: ${text}`);
    }
    await api.send('PUT', '/api/tutor/profile-picture', { profileImageURL: uploadURL }, anyAnswer);
  },
  saveSubjects: (qualifications: readonly Qualification[]) =>
    api.send('POST', '/api/tutor/subjects', { subjectQualifications: qualifications }, z.array(tutorSubjectSchema)),
  saveAvailability: (availability: readonly WeeklyHoursRow[], timezone?: string) =>
    apiRequest('POST', '/api/tutor/availability', timezone ? { availability, timezone } : { availability }),
  /** The sandbox calendar's events between two instants, series as their occurrences (Google's `singleEvents`). */
  calendarEvents: (from: string, to: string) =>
    api.get(`/api/tutor/calendar/events?${new URLSearchParams({ from, to })}`, calendarEventListSchema),
  /** One event, a series' master (with its recurrence), or one occurrence. */
  calendarEvent: (id: string) => api.get(`/api/tutor/calendar/events/${enc(id)}`, calendarEventSchema),
  /** `key`: one per form opened, so a retried save makes one event. */
  createCalendarEvent: (body: CalendarEventRequest, key: string) =>
    api.send('POST', '/api/tutor/calendar/events', body, calendarEventSchema, { headers: { 'Idempotency-Key': key } }),
  /** Changes an event, a whole series, or one occurrence (its instance id). */
  changeCalendarEvent: (id: string, body: Partial<CalendarEventRequest>) =>
    api.send('PATCH', `/api/tutor/calendar/events/${enc(id)}`, body, calendarEventSchema),
  /** Deletes an event, a whole series, or one occurrence. */
  deleteCalendarEvent: (id: string) => apiRequest('DELETE', `/api/tutor/calendar/events/${enc(id)}`),
  completeOnboarding: () => apiRequest('POST', '/api/tutor/onboarding/complete', {}),

  /** The tutor's sessions (spec part 2 §7 "Sessions"). */
  sessions: (tutorId: string) => api.get(`/api/sessions/tutor/${enc(tutorId)}`, z.array(tutorSessionSchema)),
  complete: (sessionId: string, notes: string) =>
    api.send('PATCH', `/api/sessions/${enc(sessionId)}/complete`, { completed: true, notes }, tutorSessionSchema, idempotencyKey()),
  sendInvite: (sessionId: string) =>
    api.send('POST', `/api/sessions/${enc(sessionId)}/send-invite`, undefined, sendInviteAnswerSchema, idempotencyKey()),
  syncStatus: (tutorId: string) => api.get(`/api/tutor/${enc(tutorId)}/sync-status`, syncStatusSchema),
  syncCalendar: (tutorId: string) =>
    api.send('POST', `/api/tutor/${enc(tutorId)}/sync-calendar`, undefined, syncCalendarAnswerSchema, idempotencyKey()),

  directory: (subjectId: string, gradeLevel: string) => {
    const params = new URLSearchParams();
    if (subjectId) params.set('subjectId', subjectId);
    if (gradeLevel) params.set('gradeLevel', gradeLevel);
    const query = params.toString();
    return api.get(`/api/tutors${query ? `?${query}` : ''}`, z.array(tutorListEntrySchema));
  },
};

/** The PUT of the picture's bytes failed (toast "Upload failed" with the server's message). */
export class UploadError extends Error {
  override name = 'UploadError';
}
