import { z } from 'zod';
import { cleanName } from '../kit/nameText.ts';
import { timeZoneField } from '../kit/timeZones.ts';
import { gradeLevelSchema } from '../subjects/gradeLevels.ts';

/**
 * The tutors API's bodies and answers (spec part 2 §3 and §7), shared by the server and the UI
 * (`@shared/tutors/tutorApi.ts`): the UI reads every answer through them and the server's tests
 * check its answers against them.
 */

/** The largest profile picture accepted (spec part 2 §9), in bytes. */
export const MAX_PICTURE_BYTES = 5_242_880;
export const PICTURE_TOO_LARGE = 'File size must be less than 5MB';
export const PICTURE_NOT_AN_IMAGE = 'Please select a valid image file';

/** GET /api/tutor/profile (and the answer of the profile writes). `id` is the tutor id every tutor path uses. */
export const tutorProfileSchema = z.object({
  id: z.string(),
  userId: z.string(),
  onboardingCompleted: z.boolean(),
  bio: z.string().nullable(),
  /** Years of teaching experience. */
  experience: z.number().int().nullable(),
  /** A URL the browser can load (`/api/tutors/{id}/picture?v=…`), or null. */
  profileImagePath: z.string().nullable(),
  /** Dollars per session-hour; null until an admin sets it. */
  hourlyRate: z.number().nullable(),
});
export type TutorProfile = z.output<typeof tutorProfileSchema>;

/** PUT /api/tutors/{id}: the spec sends `{bio}`; `experience` is ours (the profile-complete check needs it). */
export const editTutorProfileBody = z
  .object({
    bio: z.string().max(10_000).optional(),
    experience: z.number().int().min(0).max(80).nullable().optional(),
  })
  .strict();

/** PATCH /api/user/name. */
export const changeNameBody = z
  .object({
    firstName: z
      .string()
      .trim()
      .min(1, 'First name is required')
      .max(100)
      .refine(...cleanName('First name')),
    lastName: z
      .string()
      .trim()
      .min(1, 'Last name is required')
      .max(100)
      .refine(...cleanName('Last name')),
  })
  .strict();

/** POST /api/tutor/profile-picture/upload → where to PUT the bytes (with the session cookie). */
export const pictureUploadSchema = z.object({ uploadURL: z.string() });
/** PUT /api/tutor/profile-picture: the upload URL the bytes went to. */
export const setPictureBody = z.object({ profileImageURL: z.string().max(2000) }).strict();

/** POST /api/tutor/subjects. */
export const saveQualificationsBody = z
  .object({
    subjectQualifications: z.array(z.object({ subjectId: z.string().max(100), maxGradeLevel: gradeLevelSchema }).strict()).max(500),
  })
  .strict();
/** GET /api/tutor/subjects (and the answer of POST): the saved set, implied subjects included. */
export const tutorSubjectSchema = z.object({ subjectId: z.string(), name: z.string(), maxGradeLevel: gradeLevelSchema });
export type TutorSubject = z.output<typeof tutorSubjectSchema>;

/** POST /api/tutor/availability: the weekly "Topmark Hours" (0 = Sunday … 6), times "HH:mm" in the tutor's zone. */
export const saveAvailabilityBody = z
  .object({
    availability: z
      .array(z.object({ dayOfWeek: z.number(), startTime: z.string().max(10), endTime: z.string().max(10) }).strict())
      .max(100),
    /** IANA zone (src/domain/kit/timeZones.ts); defaults to the tutor's account time zone. */
    timezone: timeZoneField().optional(),
  })
  .strict();
/** GET /api/tutor/availability: the weekly hours read back from the calendar (spec part 1 §3 `tutor_availability`). */
export const availabilityEntrySchema = z.object({
  id: z.string(),
  dayOfWeek: z.number().int(),
  startTime: z.string(),
  endTime: z.string(),
  timezone: z.string(),
  isActive: z.boolean(),
});
export type AvailabilityEntry = z.output<typeof availabilityEntrySchema>;

/** GET /api/tutor/{tutorId}/calendar-status (spec part 2 §3), plus what the banners need. */
export const calendarStatusSchema = z.object({
  accessible: z.boolean(),
  email: z.string().nullable(),
  isConnected: z.boolean(),
  hasAvailability: z.boolean(),
  /** The token is expired, missing or revoked: show the re-authorise banner. */
  needsReauthorisation: z.boolean(),
  /** The address to share a calendar with (the service account), when one is configured. */
  serviceAccountEmail: z.string().nullable(),
  /** `sandbox`: the built-in calendar (no Google configured); the dashboard then shows its week view (GET /api/tutor/calendar/events). */
  provider: z.enum(['google', 'sandbox']),
});
export type CalendarStatusAnswer = z.output<typeof calendarStatusSchema>;

/** GET /api/tutor/dashboard-stats: weeks run Monday–Sunday and periods 1st–15th / 16th–end, in the tutor's zone. */
export const dashboardStatsSchema = z.object({
  activeStudents: z.number().int(),
  sessionsThisWeek: z.number().int(),
  hoursThisBillingPeriod: z.number(),
  /** Dollars, to the cent. */
  earningsThisBillingPeriod: z.number(),
});
export type DashboardStats = z.output<typeof dashboardStatsSchema>;

/** GET /api/tutors?subjectId=&gradeLevel= entries and GET /api/tutors/{id} (spec part 2 §3 "Tutor list entry"). */
export const tutorListEntrySchema = z.object({
  id: z.string(),
  user: z.object({ firstName: z.string(), lastName: z.string(), profileImage: z.string().nullable() }),
  /** Average rating to one decimal, null while the tutor has none ("New"). */
  rating: z.number().nullable(),
  totalSessions: z.number().int(),
  bio: z.string().nullable(),
  subjects: z.array(z.object({ id: z.string(), name: z.string() })),
  experience: z.number().int().nullable(),
  reviewCount: z.number().int(),
});
export type TutorListEntry = z.output<typeof tutorListEntrySchema>;
export const tutorDirectoryQuery = z.object({
  subjectId: z.string().max(100).optional(),
  gradeLevel: gradeLevelSchema.optional(),
});
