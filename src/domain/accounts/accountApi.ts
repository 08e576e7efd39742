import { z } from 'zod';
import { studentGrades } from './accountForms.ts';

/**
 * The accounts API's answers (and two request bodies), as zod schemas shared by the server and the
 * UI (`@shared/accounts/accountApi.ts`): the UI reads every answer through them, and the server's
 * API tests check its answers against them, so the two cannot drift apart silently.
 */

/** Every role a signed-in user can have (the view-only login included). */
export type { Role as AccountRole } from './user.ts';

/** The student profile of the signed-in user (or of the student a view-only login opens). */
export const studentSummarySchema = z.object({
  id: z.string(),
  /** Null or empty for a student created by Google sign-in (no grade asked yet). */
  grade: z.string().nullable(),
  isUniversityStudent: z.boolean(),
  schoolYearStartMonth: z.number().int().nullable(),
  hasSecondaryLogin: z.boolean(),
});
export type StudentSummary = z.output<typeof studentSummarySchema>;

/** GET /api/user (and the answer of POST /api/login, /api/register, /api/user/update-role). */
export const currentUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  /** One of the roles; kept open so an unknown role from a newer server does not break the UI. */
  role: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  emailVerified: z.boolean(),
  authProvider: z.string(),
  timezone: z.string(),
  /** The person chose the zone (issue 24): the sign-in sync leaves it alone. Absent from older servers. */
  timezoneChosen: z.boolean().default(false),
  termsAcceptedAt: z.string().nullable(),
  termsAcceptedVersion: z.string().nullable(),
  googleTokenExpiry: z.string().nullable().optional(),
  createdAt: z.string(),
  student: studentSummarySchema.nullable(),
  /** True for a student's secondary (view-only) login. */
  viewOnly: z.boolean(),
});
export type CurrentUser = z.output<typeof currentUserSchema>;

/** `{ ok, message? }`: the answer of the account actions that return nothing else. */
export const okSchema = z.object({ ok: z.boolean(), message: z.string().optional() });

/** POST /api/accept-terms. */
export const acceptTermsResponseSchema = z.object({ ok: z.boolean(), termsAcceptedAt: z.string().nullable().optional() });

/** PATCH /api/user/timezone. */
export const timezoneResponseSchema = z.object({ ok: z.boolean(), timezone: z.string(), chosen: z.boolean().default(false) });

/** GET /api/parent/students. */
export const parentStudentSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  grade: z.string().nullable(),
  hasSecondaryLogin: z.boolean(),
  /** Not sent by the server yet; shown when it is. */
  secondaryUsername: z.string().nullable().optional(),
});
export type ParentStudent = z.output<typeof parentStudentSchema>;
export const parentStudentsResponseSchema = z.object({ students: z.array(parentStudentSchema) });

/**
 * POST /api/student/secondary-login: create, rename or reset a student's view-only login (the
 * server's inline body schema, same rules and messages).
 */
export const secondaryLoginSchema = z.object({
  studentId: z.string().max(100).optional(),
  secondaryUsername: z
    .string({ error: 'Username must be at least 3 characters' })
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(100, 'Username is too long')
    .refine((v) => !v.includes('@'), 'A username cannot be an e-mail address'),
  password: z
    .string({ error: 'Password must be at least 6 characters long' })
    .min(6, 'Password must be at least 6 characters long')
    .max(200, 'Password is too long'),
});
export type SecondaryLoginInput = z.input<typeof secondaryLoginSchema>;
export type SecondaryLoginPayload = z.output<typeof secondaryLoginSchema>;

/** Grade options of the student Account dialog (spec part 2 §5: Grade 6 to 12, University/College). */
export const studentGradeOptions = studentGrades;
export type StudentGrade = (typeof studentGrades)[number];

export const ACCOUNT_FIELDS_REQUIRED = 'Grade and school year start month are required';

/** PUT /api/student/{studentId}/account: grade and school year start month, both required. */
export const studentAccountSchema = z.object({
  grade: z.enum(studentGradeOptions, { error: ACCOUNT_FIELDS_REQUIRED }),
  schoolYearStartMonth: z.coerce
    .number<string | number>({ error: ACCOUNT_FIELDS_REQUIRED })
    .int(ACCOUNT_FIELDS_REQUIRED)
    .min(1, ACCOUNT_FIELDS_REQUIRED)
    .max(12, ACCOUNT_FIELDS_REQUIRED),
});
export type StudentAccountInput = z.input<typeof studentAccountSchema>;
export type StudentAccountPayload = z.output<typeof studentAccountSchema>;

/** The answer of PUT /api/student/{studentId}/account: the updated student. */
export const updatedStudentSchema = z.object({
  id: z.string(),
  grade: z.string().nullable(),
  schoolYearStartMonth: z.number().int().nullable(),
  isUniversityStudent: z.boolean().optional(),
});

/** A file sent with a kept mail: a session notice's calendar file (`text/calendar; charset=utf-8; method=REQUEST`). */
export const devMailAttachmentSchema = z.object({
  filename: z.string(),
  contentType: z.string(),
  /** The file's text (the iCalendar text of a calendar file). */
  content: z.string(),
});
export type DevMailAttachment = z.output<typeof devMailAttachmentSchema>;

/** GET /api/dev/mailbox (only while the outbox mailer is active; 404 with real SMTP). */
export const devMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  attachments: z.array(devMailAttachmentSchema),
  sentAt: z.string(),
});
export type DevMail = z.output<typeof devMailSchema>;
export const devMailboxResponseSchema = z.object({ mails: z.array(devMailSchema) });
