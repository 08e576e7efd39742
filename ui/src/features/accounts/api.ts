import {
  acceptTermsResponseSchema,
  currentUserSchema,
  devMailboxResponseSchema,
  okSchema,
  parentStudentsResponseSchema,
  type SecondaryLoginPayload,
  type StudentAccountPayload,
  timezoneResponseSchema,
  updatedStudentSchema,
} from '@shared/accounts/accountApi.ts';
import type {
  AcceptTermsPayload,
  LoginValues,
  RegistrationPayload,
  ResetPasswordPayload,
  ResetRequestValues,
} from '@shared/accounts/accountForms.ts';
import { api, jsonQuery } from '../../app/api.ts';

/**
 * The accounts API (spec part 1 §7, part 2 §7; docs/accounts.md). Request bodies are typed by the
 * shared form schemas (`@shared/accounts/accountForms.ts`), answers by `@shared/accounts/accountApi.ts`.
 */
export const accountsApi = {
  currentUserKey: ['/api/user'] as const,
  /** GET /api/user; 401 means "no user" (null). */
  currentUser: jsonQuery('/api/user', currentUserSchema, { on401: 'returnNull' }),
  login: (credentials: LoginValues) => api.send('POST', '/api/login', credentials, currentUserSchema),
  /** Registration answers the new (not yet verified, not signed-in) user. */
  register: (payload: RegistrationPayload) => api.send('POST', '/api/register', payload, currentUserSchema),
  logout: () => api.send('POST', '/api/logout', undefined, okSchema),
  deleteAccount: () => api.send('DELETE', '/api/user/delete', undefined, okSchema),
  acceptTerms: (payload: AcceptTermsPayload) => api.send('POST', '/api/accept-terms', payload, acceptTermsResponseSchema),
  becomeStudent: () => api.send('POST', '/api/user/update-role', { role: 'student' }, currentUserSchema),
  /** `automatic` is the sign-in sync (the server keeps a chosen zone); `chosen` and `device` are the person's own. */
  changeTimezone: (timezone: string, mode: 'automatic' | 'chosen' | 'device' = 'automatic') =>
    api.send('PATCH', '/api/user/timezone', { timezone, mode }, timezoneResponseSchema),
  verifyEmail: (email: string, code: string) => api.send('POST', '/api/verify-email', { email, code }, okSchema),
  resendVerification: (email: string) => api.send('POST', '/api/resend-verification', { email }, okSchema),
  requestPasswordReset: (values: ResetRequestValues) => api.send('POST', '/api/auth/request-password-reset', values, okSchema),
  resetPassword: (payload: ResetPasswordPayload) => api.send('POST', '/api/auth/reset-password', payload, okSchema),

  parentStudentsKey: ['/api/parent/students'] as const,
  parentStudents: jsonQuery('/api/parent/students', parentStudentsResponseSchema),
  /** Create, rename or reset a student's view-only login (parent or the student themself). */
  setSecondaryLogin: (payload: SecondaryLoginPayload) => api.send('POST', '/api/student/secondary-login', payload, okSchema),
  /** The student Account dialog (spec part 2 §2, §5). */
  updateStudentAccount: (studentId: string, payload: StudentAccountPayload) =>
    api.send('PUT', `/api/student/${encodeURIComponent(studentId)}/account`, payload, updatedStudentSchema),

  devMailboxKey: ['/api/dev/mailbox'] as const,
  devMailbox: jsonQuery('/api/dev/mailbox', devMailboxResponseSchema),
};

/**
 * Full-page navigations that start Google sign-in (spec part 1 §7): the server answers with a
 * redirect to Google (or to the dev consent page) and comes back to the user's landing page, or to
 * /login?error=… when sign-in did not complete.
 */
export const googleSignInUrl = {
  student: '/api/auth/google?userType=student',
  tutor: '/api/auth/google?userType=tutor',
} as const;
