import { z } from 'zod';
import { cleanName } from '../kit/nameText.ts';

/**
 * Account forms shared by the UI (react-hook-form + zodResolver) and the server (request bodies):
 * spec part 1 §5 (validation messages) and §9 (constants). Pure zod, no other imports, so the UI
 * bundle can import it.
 */

export const CURRENT_TERMS_VERSION = '1.0';
export const ACCOUNT_CODE_LENGTH = 6;
export const ACCOUNT_MIN_PASSWORD_LENGTH = 6;

export const gradeOptions = ['Grade 9', 'Grade 10', 'Grade 11', 'Grade 12', 'University/College'] as const;
export type GradeOption = (typeof gradeOptions)[number];
/** The student Account dialog offers a wider range than registration (spec part 2: Grade 6 to 12, University/College). */
export const studentGrades = [
  'Grade 6',
  'Grade 7',
  'Grade 8',
  'Grade 9',
  'Grade 10',
  'Grade 11',
  'Grade 12',
  'University/College',
] as const;

const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';
const PASSWORDS_DONT_MATCH = "Passwords don't match";
const INVALID_EMAIL = 'Please enter a valid email address';
const INVALID_CODE = 'Please enter a valid 6-digit code';
const FILL_ALL_FIELDS = 'Please fill in all fields';

/** A trimmed, required e-mail address: `requiredMessage` when empty, INVALID_EMAIL when malformed. */
const emailField = (requiredMessage: string) =>
  z.string({ error: requiredMessage }).trim().min(1, requiredMessage).max(254, 'Email is too long').pipe(z.email(INVALID_EMAIL));

/** Exactly 6 digits (verification and reset codes). */
export const verifyCodeSchema = z
  .string({ error: INVALID_CODE })
  .trim()
  .regex(/^\d{6}$/, INVALID_CODE);

// ---------------------------------------------------------------------------------------------
// Sign in

export const loginSchema = z.object({
  username: z.string({ error: 'Username or email is required' }).trim().min(1, 'Username or email is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});
export type LoginInput = z.input<typeof loginSchema>;
export type LoginValues = z.output<typeof loginSchema>;

// ---------------------------------------------------------------------------------------------
// Registration

const registrationFields = {
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(100, 'Username is too long')
    // Signing in by e-mail must name one account: a username may not look like an address.
    .refine((v) => !v.includes('@'), 'A username cannot be an e-mail address')
    .refine(...cleanName('Username')),
  email: emailField('Email is required'),
  password: z.string({ error: PASSWORD_TOO_SHORT }).min(ACCOUNT_MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT).max(200, 'Password is too long'),
  firstName: z
    .string({ error: 'First name is required' })
    .trim()
    .min(1, 'First name is required')
    .max(100, 'First name is too long')
    .refine(...cleanName('First name')),
  lastName: z
    .string({ error: 'Last name is required' })
    .trim()
    .min(1, 'Last name is required')
    .max(100, 'Last name is too long')
    .refine(...cleanName('Last name')),
  phone: z.string().trim().max(40, 'Phone number is too long').optional(),
  /** Self-registration offers only the Student account type (spec part 1 §5, §6). */
  role: z.literal('student', { error: 'Only student accounts can be created here' }),
  /** One of `gradeOptions`; required when role is student (checked below). */
  grade: z.string().trim().optional(),
  isUniversityStudent: z.boolean(),
  termsAccepted: z.boolean({ error: 'You must accept the terms and conditions' }),
  termsAcceptedVersion: z.literal(CURRENT_TERMS_VERSION, { error: 'Unsupported terms version' }),
};

interface RegistrationRuleInput {
  role: string;
  grade?: string | undefined;
  termsAccepted: boolean;
}

/** The cross-field rules shared by the form and the payload. */
function checkRegistrationRules(value: RegistrationRuleInput, ctx: z.RefinementCtx): void {
  if (value.role === 'student' && !value.grade) {
    ctx.addIssue({ code: 'custom', message: 'Grade is required for students', path: ['grade'] });
  } else if (value.grade && !(gradeOptions as readonly string[]).includes(value.grade)) {
    ctx.addIssue({ code: 'custom', message: 'Please choose a grade from the list', path: ['grade'] });
  }
  if (value.termsAccepted !== true) {
    ctx.addIssue({ code: 'custom', message: 'You must accept the terms and conditions', path: ['termsAccepted'] });
  }
}

/** The sign-up form (with confirmPassword). */
export const registrationSchema = z.object({ ...registrationFields, confirmPassword: z.string() }).superRefine((value, ctx) => {
  checkRegistrationRules(value, ctx);
  if (value.password !== value.confirmPassword) {
    ctx.addIssue({ code: 'custom', message: PASSWORDS_DONT_MATCH, path: ['confirmPassword'] });
  }
});
export type RegistrationInput = z.input<typeof registrationSchema>;
export type RegistrationValues = z.output<typeof registrationSchema>;

/** The body of POST /api/register: the form minus confirmPassword, nothing else accepted. */
export const registrationPayloadSchema = z.object(registrationFields).strict().superRefine(checkRegistrationRules);
export type RegistrationPayload = z.output<typeof registrationPayloadSchema>;

// ---------------------------------------------------------------------------------------------
// E-mail verification

/** The body of POST /api/verify-email. */
export const verifyEmailSchema = z.object({
  email: emailField('Email address is required to verify your account.'),
  code: verifyCodeSchema,
});
export type VerifyEmailPayload = z.output<typeof verifyEmailSchema>;

/** The body of POST /api/resend-verification. */
export const resendVerificationSchema = z.object({
  email: emailField('Email address is required to resend verification code.'),
});
export type ResendVerificationPayload = z.output<typeof resendVerificationSchema>;

// ---------------------------------------------------------------------------------------------
// Password reset

/** Step 1 (and the body of POST /api/auth/request-password-reset). */
export const resetRequestSchema = z.object({
  email: emailField('Please enter your email address'),
});
export type ResetRequestInput = z.input<typeof resetRequestSchema>;
export type ResetRequestValues = z.output<typeof resetRequestSchema>;

const resetFields = {
  email: z.string({ error: FILL_ALL_FIELDS }).trim().min(1, FILL_ALL_FIELDS).max(254, 'Email is too long').pipe(z.email(INVALID_EMAIL)),
  code: z
    .string({ error: FILL_ALL_FIELDS })
    .trim()
    .min(1, FILL_ALL_FIELDS)
    .regex(/^\d{6}$/, INVALID_CODE),
  newPassword: z
    .string({ error: FILL_ALL_FIELDS })
    .min(1, FILL_ALL_FIELDS)
    .min(ACCOUNT_MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT)
    .max(200, 'Password is too long'),
};

/** Step 2 of the reset (the form, with the confirmation). */
export const resetPasswordSchema = z
  .object({ ...resetFields, confirmPassword: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS) })
  .superRefine((value, ctx) => {
    if (value.confirmPassword && value.newPassword !== value.confirmPassword) {
      ctx.addIssue({ code: 'custom', message: PASSWORDS_DONT_MATCH, path: ['confirmPassword'] });
    }
  });
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export type ResetPasswordValues = z.output<typeof resetPasswordSchema>;

/** The body of POST /api/auth/reset-password. */
export const resetPasswordPayloadSchema = z.object(resetFields).strict();
export type ResetPasswordPayload = z.output<typeof resetPasswordPayloadSchema>;

// ---------------------------------------------------------------------------------------------
// Terms, role, time zone

/** The body of POST /api/accept-terms. */
export const acceptTermsSchema = z.object({
  termsAcceptedVersion: z.literal(CURRENT_TERMS_VERSION, { error: 'Unsupported terms version' }),
});
export type AcceptTermsPayload = z.output<typeof acceptTermsSchema>;

/** The 13 selectable time zones of spec part 1 §9, as IANA ids. */
export const selectableTimezones = [
  { value: 'America/New_York', label: 'Eastern' },
  { value: 'America/Chicago', label: 'Central' },
  { value: 'America/Denver', label: 'Mountain' },
  { value: 'America/Los_Angeles', label: 'Pacific' },
  { value: 'America/Phoenix', label: 'Arizona' },
  { value: 'America/Anchorage', label: 'Alaska' },
  { value: 'Pacific/Honolulu', label: 'Hawaii' },
  { value: 'America/Toronto', label: 'Toronto' },
  { value: 'America/Vancouver', label: 'Vancouver' },
  { value: 'Europe/London', label: 'London' },
  { value: 'Europe/Paris', label: 'Paris' },
  { value: 'Asia/Tokyo', label: 'Tokyo' },
  { value: 'Australia/Sydney', label: 'Sydney' },
] as const;
export type SelectableTimezone = (typeof selectableTimezones)[number]['value'];
