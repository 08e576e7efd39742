import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEV_CONSENT_PATH, pkceChallenge, type SignInUserType } from '../../../adapters/identity/identityProvider.ts';
import { CURRENT_TERMS_VERSION } from '../../../domain/accounts/accountForms.ts';
import { ACCOUNT_DEACTIVATED } from '../../../domain/accounts/userActivityDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { cleanName } from '../../../domain/kit/nameText.ts';
import { INVITATION_REVOKED } from '../../../domain/tutors/invitationDecider.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import type { System } from '../../../system.ts';
import { SIGN_IN_COOKIE, setSignInCookie } from '../../kit/auth.ts';
import { contextFrom } from '../../kit/commandRequest.ts';
import { statusOfKind } from '../../kit/errors.ts';
import { CALLBACK_PATH, consentPage, sendPage } from './devConsentPage.ts';
import { landingOf, tutorApplicationLanding } from './landing.ts';

export { CALLBACK_PATH } from './devConsentPage.ts';

export const OAUTH_COOKIE = 'tm_oauth';
const OAUTH_COOKIE_PATH = '/api/auth/google';
/** How long a started sign-in may take (the cookie's life and the server-side check). */
const OAUTH_TTL_SECONDS = 10 * 60;

const userTypeSchema = z.enum(['tutor', 'student']);
/** Random url-safe tokens: our own state (32 bytes) and an S256 challenge (43 characters). */
const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'Invalid sign-in request');

/** What the browser carries between the start and the callback: signed, HttpOnly, ten minutes. */
interface OAuthFlow {
  state: string;
  verifier: string;
  userType: SignInUserType;
  /** Set by /tutor-signup once its agreement box is ticked; recorded on the application. */
  termsAcceptedVersion?: string;
  startedAt: number;
}

const secure = (request: FastifyRequest) => request.protocol === 'https' || process.env.NODE_ENV === 'production';

function startFlow(reply: FastifyReply, request: FastifyRequest, flow: OAuthFlow): void {
  const value = Buffer.from(JSON.stringify(flow)).toString('base64url');
  reply.setCookie(OAUTH_COOKIE, reply.signCookie(value), {
    path: OAUTH_COOKIE_PATH,
    httpOnly: true,
    // Lax: the cookie comes back on Google's top-level redirect to the callback.
    sameSite: 'lax',
    secure: secure(request),
    maxAge: OAUTH_TTL_SECONDS,
  });
}

/** The flow this browser started, if its cookie is genuine and recent. */
function flowOf(request: FastifyRequest): OAuthFlow | null {
  const raw = request.cookies[OAUTH_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid) return null;
  try {
    const flow = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')) as OAuthFlow;
    if (!userTypeSchema.safeParse(flow.userType).success || typeof flow.state !== 'string' || typeof flow.verifier !== 'string')
      return null;
    if (!(Date.now() - flow.startedAt < OAUTH_TTL_SECONDS * 1000)) return null;
    return flow;
  } catch {
    return null;
  }
}

const sameString = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Why a sign-in failed, for the log: the error's kind only (provider errors can quote the id token). */
function failureReason(error: unknown): Record<string, unknown> {
  if (error instanceof DomainError) return { reason: error.message, status: statusOfKind[error.kind] };
  if (error instanceof Error) {
    const status = (error as { response?: { status?: number } }).response?.status;
    return { reason: error.name, ...(status ? { providerStatus: status } : {}) };
  }
  return { reason: 'unknown' };
}

/** Where a failed sign-in lands: the refusals a person can act on are named, anything else is generic. */
function failureLanding(failure: unknown): string {
  if (failure instanceof DomainError && failure.message === ACCOUNT_DEACTIVATED) return '/login?error=deactivated';
  // The tutor application page tells an invitee whose invitation an admin withdrew.
  if (failure instanceof DomainError && failure.message === INVITATION_REVOKED) return '/tutor-login?status=invitation_revoked';
  return '/login?error=google';
}

const consentQuerySchema = z.object({ state: tokenSchema, userType: userTypeSchema, code_challenge: tokenSchema });
const consentBodySchema = z.object({
  email: z.string().max(254).optional(),
  firstName: z
    .string()
    .max(100)
    .refine(...cleanName('First name'))
    .optional(),
  lastName: z
    .string()
    .max(100)
    .refine(...cleanName('Last name'))
    .optional(),
  state: tokenSchema,
  userType: userTypeSchema,
  code_challenge: tokenSchema,
});
const INVALID_EMAIL = 'Please enter a valid email address';

/**
 * Google sign-in (docs/accounts.md, "Google sign-in"): the start, the callback, and the dev
 * provider's consent page that stands in for Google when no credentials are configured.
 */
export const googleAuthRoutes =
  ({ accounts, config, identity, sql }: Pick<System, 'accounts' | 'config' | 'identity' | 'sql'>): FastifyPluginAsyncZod =>
  async (app) => {
    const dev = identity.devConsent ?? null;
    // The dev provider signs anyone in: never in production (no Google credentials there means no Google sign-in).
    const unavailable = dev !== null && config.NODE_ENV === 'production';
    const redirectUri = `${config.PUBLIC_URL.replace(/\/+$/, '')}${CALLBACK_PATH}`;

    // Only this plugin's routes read forms (the dev consent page); the rest of the API is JSON.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    app.get(
      '/api/auth/google',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['accounts'],
          summary: 'Start Google sign-in (302 to Google, or to the dev consent page)',
          querystring: z.object({ userType: userTypeSchema, termsAcceptedVersion: z.literal(CURRENT_TERMS_VERSION).optional() }),
        },
      },
      async (request, reply) => {
        if (unavailable) return reply.redirect('/login?error=google_unavailable');
        const state = randomBytes(32).toString('base64url');
        const verifier = randomBytes(32).toString('base64url');
        const { userType, termsAcceptedVersion } = request.query;
        startFlow(reply, request, {
          state,
          verifier,
          userType,
          ...(termsAcceptedVersion ? { termsAcceptedVersion } : {}),
          startedAt: Date.now(),
        });
        return reply
          .header('cache-control', 'no-store')
          .redirect(identity.authorizationUrl({ state, codeChallenge: pkceChallenge(verifier), userType, redirectUri }));
      },
    );

    /** Exchanges the code, signs the person in (or records a tutor's application); the page to land on. */
    const complete = async (request: FastifyRequest, reply: FastifyReply, flow: OAuthFlow, code: string): Promise<string> => {
      const person = await identity.exchange({ code, codeVerifier: flow.verifier, redirectUri });
      const termsVersion = flow.termsAcceptedVersion === CURRENT_TERMS_VERSION ? CURRENT_TERMS_VERSION : null;
      const result = await accounts.signInWithGoogle(person, flow.userType, termsVersion, contextFrom(request));
      // A browser redirect cannot be retried by a script: wait longer than an API answer would.
      await waitForProjections(sql, result.signIn ? accounts.projections : ['tutor_applications'], result.position, 10_000);
      if (result.signIn) {
        // A new sign-in token at every sign-in: a token fixed before sign-in is never upgraded.
        const previous = request.cookies[SIGN_IN_COOKIE];
        if (previous) await accounts.endSignIn(previous);
        setSignInCookie(reply, request, result.signIn.token);
      }
      request.log.info({ outcome: result.outcome, userType: flow.userType }, 'google sign-in');
      if (result.outcome === 'applied') return tutorApplicationLanding(result.application);
      // An approved tutor finishes onboarding first.
      return landingOf(result.signIn?.role, { onboardingPending: result.onboardingPending });
    };

    app.get(
      CALLBACK_PATH,
      {
        config: { roles: 'public' },
        schema: {
          tags: ['accounts'],
          summary: 'Where Google (or the dev consent page) returns; 302 to the landing page',
          querystring: z.object({
            code: z.string().max(4096).optional(),
            state: z.string().max(512).optional(),
            error: z.string().max(512).optional(),
          }),
        },
      },
      async (request, reply) => {
        const flow = flowOf(request);
        reply.clearCookie(OAUTH_COOKIE, { path: OAUTH_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secure(request) });
        reply.header('cache-control', 'no-store');
        const { code, state, error } = request.query;
        if (!flow || !state || !sameString(state, flow.state)) {
          request.log.warn({ reason: flow ? 'state_mismatch' : 'no_flow' }, 'google sign-in refused');
          return reply.redirect('/login?error=oauth_state');
        }
        if (error || !code) {
          request.log.info({ reason: error ? 'provider_error' : 'no_code' }, 'google sign-in not completed');
          return reply.redirect('/login?error=google');
        }
        try {
          return reply.redirect(await complete(request, reply, flow, code));
        } catch (failure) {
          request.log.warn(failureReason(failure), 'google sign-in failed');
          return reply.redirect(failureLanding(failure));
        }
      },
    );

    app.get(
      DEV_CONSENT_PATH,
      {
        config: { roles: 'public' },
        schema: {
          tags: ['dev'],
          summary: 'The dev identity provider consent page (only without Google credentials)',
          querystring: consentQuerySchema,
        },
      },
      async (request, reply) => {
        if (!dev || unavailable) return reply.status(404).send({ message: 'Not found' });
        const { state, userType, code_challenge } = request.query;
        return sendPage(reply, 200, consentPage({ state, userType, codeChallenge: code_challenge }));
      },
    );

    app.post(
      DEV_CONSENT_PATH,
      {
        config: { roles: 'public' },
        schema: {
          tags: ['dev'],
          summary: 'Submit the dev consent form: 302 to the callback with a one-time code',
          body: consentBodySchema,
        },
      },
      async (request, reply) => {
        if (!dev || unavailable) return reply.status(404).send({ message: 'Not found' });
        const { state, userType, code_challenge, firstName = '', lastName = '' } = request.body;
        const email = (request.body.email ?? '').trim();
        if (!z.email().safeParse(email).success) {
          return sendPage(
            reply,
            400,
            consentPage({ state, userType, codeChallenge: code_challenge, email, firstName, lastName, error: INVALID_EMAIL }),
          );
        }
        const code = await dev.issueCode({ email, firstName, lastName, codeChallenge: code_challenge });
        return reply.header('cache-control', 'no-store').redirect(`${CALLBACK_PATH}?${new URLSearchParams({ code, state })}`);
      },
    );
  };
