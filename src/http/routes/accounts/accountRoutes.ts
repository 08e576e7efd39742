import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptTermsSchema,
  loginSchema,
  registrationPayloadSchema,
  resendVerificationSchema,
  resetPasswordPayloadSchema,
  resetRequestSchema,
  studentGrades,
  verifyEmailSchema,
} from '../../../domain/accounts/accountForms.ts';
import { timezoneModes } from '../../../domain/accounts/userDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { timeZoneField } from '../../../domain/kit/timeZones.ts';
import { changeNameBody } from '../../../domain/tutors/tutorApi.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import type { System } from '../../../system.ts';
import { clearSignInCookie, NOT_AUTHENTICATED, principalOf, SIGN_IN_COOKIE, setSignInCookie } from '../../kit/auth.ts';
import { contextFrom, idempotent } from '../../kit/commandRequest.ts';
import { COMMON_PASSWORD, isCommonPassword, refuseCommonPassword } from '../../kit/commonPasswords.ts';
import { statusOfKind } from '../../kit/errors.ts';
import { perIpLimit, signInLimits } from '../../kit/rateLimits.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';
import { isLoopbackHost, loopbackHostHeader } from '../../kit/security.ts';

export const signedInRoles = ['admin', 'tutor', 'parent', 'student', 'student_secondary', 'finance'] as const;
/** Roles that own an account they can change (a view-only secondary login cannot). */
export const accountHolderRoles = ['admin', 'tutor', 'parent', 'student', 'finance'] as const;
/** The command's refusal for a verified address; the routes answer it as they answer an unknown one. */
const CODE_SENT = { ok: true, message: 'New verification code sent! Please check your email.' } as const;

/** The shared zone rule (src/domain/kit/timeZones.ts); the decider applies it again. */
const timezoneSchema = z.object({ timezone: timeZoneField(), mode: z.enum(timezoneModes).optional() });

export const accountRoutes =
  ({ accounts, config, mailer, sql }: Pick<System, 'accounts' | 'config' | 'mailer' | 'sql'>): FastifyPluginAsyncZod =>
  async (app) => {
    const accountProjections = accounts.projections;
    /** The signed-in user as the UI reads it; a 401 when the account is gone. */
    const me = async (principal: { userId: string; role: string; studentId: string | null }) => {
      const user = await accounts.currentUser(principal);
      if (!user) throw new DomainError(NOT_AUTHENTICATED, 'unauthenticated');
      return user;
    };

    app.get(
      '/api/user',
      { config: { roles: 'public' }, schema: { tags: ['accounts'], summary: 'The signed-in user (401 when anonymous)' } },
      async (request, reply) => {
        if (!request.principal) return reply.status(401).send({ message: NOT_AUTHENTICATED });
        let user = await accounts.currentUser(request.principal);
        if (!user) {
          // A valid session whose user row is missing is a fresh account the read models have not
          // shown yet (deletion ends every session): wait for them before treating it as gone.
          await waitForProjections(sql, accountProjections, await accounts.store.committedPosition());
          user = await accounts.currentUser(request.principal);
        }
        if (!user) {
          clearSignInCookie(reply, request);
          return reply.status(401).send({ message: NOT_AUTHENTICATED });
        }
        return user;
      },
    );

    app.post(
      '/api/register',
      {
        config: {
          roles: 'public',
          ...perIpLimit(
            config,
            'register',
            config.REGISTER_IP_LIMIT,
            (wait) => `Too many accounts were created from your network. Please try again in ${wait}.`,
          ),
        },
        schema: {
          tags: ['accounts'],
          summary: 'Student self-registration; mails a verification code',
          body: registrationPayloadSchema.superRefine(refuseCommonPassword('password')),
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { userId, position } = await accounts.register(request.body, ctx);
          await readYourWrites(sql, accountProjections, position);
          return { status: 201, body: await me({ userId, role: 'student', studentId: null }), subject: userId };
        }),
    );

    app.post(
      '/api/verify-email',
      { config: { roles: 'public' }, schema: { tags: ['accounts'], body: verifyEmailSchema.strict() } },
      async (request, reply) => {
        // The command answers a verified, deleted or unknown address as a wrong code (no enumeration).
        try {
          const { position } = await accounts.verifyEmail(request.body.email, request.body.code, contextFrom(request));
          await waitForProjections(sql, accountProjections, position);
          return { ok: true, message: 'Email verified successfully! You can now log in to your account.' };
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          return reply.status(statusOfKind[error.kind]).send({ ok: false, error: error.message, message: error.message });
        }
      },
    );

    app.post(
      '/api/resend-verification',
      {
        config: {
          roles: 'public',
          ...perIpLimit(
            config,
            'resend-verification',
            config.RESEND_VERIFICATION_IP_LIMIT,
            (wait) => `Too many code requests from your network. Please try again in ${wait}.`,
          ),
        },
        schema: { tags: ['accounts'], body: resendVerificationSchema.strict() },
      },
      async (request, reply) => {
        // The command answers a verified, deleted or unknown address as a sent code (no enumeration).
        try {
          await accounts.resendVerification(request.body.email, contextFrom(request));
          return CODE_SENT;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          return reply.status(statusOfKind[error.kind]).send({ ok: false, error: error.message, message: error.message });
        }
      },
    );

    app.post(
      '/api/login',
      { config: { roles: 'public' }, schema: { tags: ['accounts'], body: loginSchema.strict() } },
      async (request, reply) => {
        const ctx = contextFrom(request);
        const previous = request.cookies[SIGN_IN_COOKIE];
        const signedIn = await accounts.signIn(request.body.username, request.body.password, ctx, signInLimits(config));
        // A new sign-in token at every sign-in: a token fixed before sign-in is never upgraded.
        if (previous) await accounts.endSignIn(previous);
        setSignInCookie(reply, request, signedIn.token);
        return me({ userId: signedIn.userId, role: signedIn.role, studentId: signedIn.studentId });
      },
    );

    app.post('/api/logout', { config: { roles: 'public' }, schema: { tags: ['accounts'] } }, async (request, reply) => {
      const token = request.cookies[SIGN_IN_COOKIE];
      if (token) await accounts.endSignIn(token);
      clearSignInCookie(reply, request);
      return { ok: true };
    });

    app.post(
      '/api/auth/request-password-reset',
      {
        config: {
          roles: 'public',
          ...perIpLimit(
            config,
            'password-reset',
            config.PASSWORD_RESET_IP_LIMIT,
            (wait) => `Too many reset requests from your network. Please try again in ${wait}.`,
          ),
        },
        schema: { tags: ['accounts'], body: resetRequestSchema.strict() },
      },
      async (request) => {
        await accounts.requestPasswordReset(request.body.email, contextFrom(request));
        return { ok: true, message: 'If an account exists for that email, we sent a 6-digit reset code to it.' };
      },
    );

    app.post(
      '/api/auth/reset-password',
      {
        config: { roles: 'public' },
        schema: { tags: ['accounts'], body: resetPasswordPayloadSchema.superRefine(refuseCommonPassword('newPassword')) },
      },
      async (request, reply) => {
        const { email, code, newPassword } = request.body;
        await accounts.resetPassword(email, code, newPassword, contextFrom(request));
        clearSignInCookie(reply, request);
        return { ok: true, message: 'Password reset successful. You can now log in.' };
      },
    );

    app.post(
      '/api/accept-terms',
      { config: { roles: accountHolderRoles }, schema: { tags: ['accounts'], body: acceptTermsSchema.strict() } },
      async (request) => {
        const principal = principalOf(request);
        const result = await accounts.acceptTerms(principal.userId, request.body.termsAcceptedVersion, contextFrom(request));
        await waitForProjections(sql, accountProjections, result.position);
        return { ok: true, termsAcceptedAt: (await me(principal)).termsAcceptedAt };
      },
    );

    app.post(
      '/api/user/update-role',
      { config: { roles: accountHolderRoles }, schema: { tags: ['accounts'], body: z.object({ role: z.string().max(50) }).strict() } },
      async (request) => {
        const principal = principalOf(request);
        const result = await accounts.chooseRole(principal.userId, request.body.role, contextFrom(request));
        await waitForProjections(sql, accountProjections, result.position);
        return me({ ...principal, role: 'student' });
      },
    );

    app.patch(
      '/api/user/timezone',
      {
        config: { roles: accountHolderRoles },
        schema: {
          tags: ['accounts'],
          summary:
            "Set the caller's time zone: `automatic` (the sign-in sync; ignored once a zone is chosen), `chosen`, or `device` (follow the browser again); answers the zone in force",
          body: timezoneSchema.strict(),
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { timezone, mode } = request.body;
        const result = await accounts.changeTimezone(principal.userId, timezone, contextFrom(request), mode);
        await waitForProjections(sql, accountProjections, result.position);
        // The zone in force, which is not the one sent when a chosen zone kept the automatic sync out.
        const user = await me(principal);
        return { ok: true, timezone: user.timezone, chosen: user.timezoneChosen };
      },
    );

    app.patch(
      '/api/user/name',
      {
        config: { roles: accountHolderRoles },
        schema: {
          tags: ['accounts'],
          summary: "Change the caller's first and last name (both non-empty once trimmed); answers the current user",
          body: changeNameBody,
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const principal = principalOf(request);
          const result = await accounts.changeName(principal.userId, request.body, ctx);
          await readYourWrites(sql, accountProjections, result.position);
          return { status: 200, body: await me(principal) };
        }),
    );

    app.post(
      '/api/student/secondary-login',
      {
        config: { roles: ['student', 'parent'] },
        schema: {
          tags: ['accounts'],
          summary: "Set the view-only login of the caller's student",
          body: z
            .object({
              studentId: z.string().max(100).optional(),
              secondaryUsername: z
                .string()
                .trim()
                .min(3, 'Username must be at least 3 characters')
                .max(100)
                .refine((v) => !v.includes('@'), 'A username cannot be an e-mail address'),
              password: z
                .string()
                .min(6, 'Password must be at least 6 characters long')
                .max(200)
                .refine((password) => !isCommonPassword(password), COMMON_PASSWORD)
                // Absent: rename only, the existing view-only password stays.
                .optional(),
            })
            .strict(),
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { secondaryUsername, password, studentId } = request.body;
        const ownStudentId = await accounts.ownStudent(principal.userId, studentId ?? null);
        if (!ownStudentId) throw new DomainError('Student not found', 'not_found');
        // Uniqueness is claimed on the username's reservation stream by the command, not checked here.
        const result = await accounts.setSecondaryLogin(ownStudentId, secondaryUsername, password, contextFrom(request));
        await waitForProjections(sql, accountProjections, result.position);
        return { ok: true };
      },
    );

    app.put(
      '/api/student/:studentId/account',
      {
        config: { roles: ['student', 'parent'] },
        schema: {
          tags: ['accounts'],
          summary: "Set a student's grade and school year start month (the student or their parent)",
          params: z.object({ studentId: z.string().max(100) }),
          body: z
            .object({
              grade: z.enum(studentGrades, { message: 'Grade and school year start month are required' }),
              schoolYearStartMonth: z.number({ message: 'Grade and school year start month are required' }).int().min(1).max(12),
            })
            .strict(),
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { studentId } = request.params;
        const student = await accounts.student(studentId);
        // Someone else's student answers as a missing one: ids are not confirmed to strangers.
        if (!student || (student.userId !== principal.userId && student.parentId !== principal.userId))
          throw new DomainError('Student not found', 'not_found');
        const result = await accounts.updateStudentAccount(studentId, request.body, contextFrom(request));
        await waitForProjections(sql, accountProjections, result.position);
        const shown = await accounts.studentAccount(studentId);
        return {
          id: studentId,
          grade: shown?.grade ?? request.body.grade,
          schoolYearStartMonth: shown?.schoolYearStartMonth ?? request.body.schoolYearStartMonth,
          isUniversityStudent: shown?.isUniversityStudent ?? request.body.grade === 'University/College',
        };
      },
    );

    app.get(
      '/api/parent/students',
      { config: { roles: ['parent'] }, schema: { tags: ['accounts'], summary: "The parent's students" } },
      async (request) => ({ students: await accounts.studentsOfParent(principalOf(request).userId) }),
    );

    app.delete('/api/user/delete', { config: { roles: accountHolderRoles }, schema: { tags: ['accounts'] } }, async (request, reply) => {
      const principal = principalOf(request);
      const result = await accounts.deleteAccount(principal.userId, contextFrom(request));
      // The deletion workflow erases and shreds; the answer waits for it (and the read models after it).
      await waitForProjections(sql, ['account_deletion'], result.position, 10_000);
      const settled = await accounts.store.committedPosition();
      await waitForProjections(sql, [...accountProjections, 'contact_messages', 'tutor_applications'], settled);
      clearSignInCookie(reply, request);
      return { ok: true };
    });

    // The dev mailbox shows every code mailed: it exists only while mail stays in the outbox (no
    // SMTP_URL), outside production, on a server listening on a loopback address.
    const mailbox = mailer.mailbox;
    if (mailbox && config.NODE_ENV !== 'production' && isLoopbackHost(config.HOST)) {
      app.get(
        '/api/dev/mailbox',
        {
          config: { roles: 'public' },
          schema: { tags: ['dev'], summary: 'Mail kept in the outbox (only without SMTP, outside production, on loopback)' },
        },
        async (request, reply) => {
          // Listening somewhere other than HOST (an address given to listen() directly) counts too.
          const address = app.server.address();
          if (address && typeof address === 'object' && !isLoopbackHost(address.address)) {
            return reply.status(404).send({ message: 'Not found' });
          }
          // Asked for by a loopback name only (issue 23 §6): a page on another name resolving to
          // 127.0.0.1 (DNS rebinding), or a proxy passing other hosts through, finds nothing.
          if (!loopbackHostHeader(request.headers.host)) return reply.status(404).send({ message: 'Not found' });
          return { mails: await mailbox.list({ limit: 50 }) };
        },
      );
    }
  };
