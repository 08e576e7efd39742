import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf } from '../../../../tests/support/accounts.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { CALENDAR_SCOPE, GoogleIdentityProvider } from '../../../adapters/identity/googleIdentity.ts';
import { pkceChallenge } from '../../../adapters/identity/identityProvider.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { deactivateUser, reactivateUser } from '../../../commands/accounts/userStatus.ts';
import { commandContext, deterministicUuid } from '../../../commands/kit/commandContext.ts';
import { tutorApplicationStreamId } from '../../../domain/accounts/tutorApplication.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import type { System } from '../../../system.ts';
import { buildApp } from '../../app.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

type Response = Awaited<ReturnType<FastifyInstance['inject']>>;

const setCookies = (res: Response): string[] => {
  const set = res.headers['set-cookie'];
  return (Array.isArray(set) ? set : set ? [set] : []).map(String);
};
/** The `name=value` pair a response sets for `name`. */
const cookiePair = (res: Response, name: string) =>
  setCookies(res)
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];
const hidden = (html: string, name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';

/** GET /api/auth/google: the redirect and the tm_oauth cookie. */
async function start(userType: string, on: FastifyInstance = app) {
  const res = await on.inject({ method: 'GET', url: `/api/auth/google?userType=${userType}` });
  return { res, location: String(res.headers.location ?? ''), oauthCookie: cookiePair(res, 'tm_oauth') ?? '' };
}

/** The consent page's form, submitted with `person` (hidden fields may be overridden). */
async function consent(location: string, person: Record<string, string>, override: Record<string, string> = {}) {
  const page = await app.inject({ method: 'GET', url: location });
  expect(page.statusCode).toBe(200);
  const fields = {
    state: hidden(page.body, 'state'),
    userType: hidden(page.body, 'userType'),
    code_challenge: hidden(page.body, 'code_challenge'),
    ...person,
    ...override,
  };
  return app.inject({
    method: 'POST',
    url: '/api/auth/dev/consent',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The whole dev flow, as a browser follows it: start → consent page → form → callback. */
async function devSignIn(userType: 'student' | 'tutor', person: Record<string, string>) {
  const { location, oauthCookie } = await start(userType);
  const posted = await consent(location, person);
  expect(posted.statusCode).toBe(302);
  const callbackUrl = String(posted.headers.location);
  const callback = await app.inject({ method: 'GET', url: callbackUrl, headers: { cookie: oauthCookie } });
  return { callback, callbackUrl, oauthCookie };
}

const me = async (cookie: string) =>
  (await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).json() as Record<string, unknown>;

describe('Google sign-in with the dev identity provider', () => {
  it('creates a verified, password-less student who still has to accept the terms', async () => {
    const started = await start('student');
    expect(started.res.statusCode).toBe(302);
    expect(started.location).toMatch(/^\/api\/auth\/dev\/consent\?/);
    const startCookie = setCookies(started.res).find((c) => c.startsWith('tm_oauth='));
    expect(startCookie).toMatch(/HttpOnly/);
    expect(startCookie).toMatch(/SameSite=Lax/);
    expect(startCookie).toMatch(/Path=\/api\/auth\/google/);

    const page = await app.inject({ method: 'GET', url: started.location });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toMatch(/<label for="email">Email<\/label>/);
    expect(page.body).toMatch(/<input id="email" name="email" type="email" required/);
    expect(page.body).toMatch(/<button type="submit">Continue<\/button>/);

    const { callback } = await devSignIn('student', { email: 'Grace.Hopper@Example.com', firstName: 'Grace', lastName: 'Hopper' });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/student');
    expect(setCookies(callback).find((c) => c.startsWith('tm_oauth='))).toMatch(/Expires=Thu, 01 Jan 1970/);
    const user = await me(cookieOf(callback));
    expect(user).toMatchObject({
      email: 'grace.hopper@example.com',
      username: 'grace.hopper',
      role: 'student',
      firstName: 'Grace',
      lastName: 'Hopper',
      authProvider: 'google',
      emailVerified: true,
      termsAcceptedAt: null,
      // A profile with no grade yet: the dashboard asks for it.
      student: { grade: '', schoolYearStartMonth: null },
    });
  });

  it('signs the same person into the same account the next time (no duplicate)', async () => {
    const first = await devSignIn('student', { email: 'ada@example.com', firstName: 'Ada' });
    const second = await devSignIn('student', { email: 'ADA@example.com' });
    expect(second.callback.headers.location).toBe('/student');
    const [a, b] = [await me(cookieOf(first.callback)), await me(cookieOf(second.callback))];
    expect(b.id).toBe(a.id);
    expect(cookieOf(second.callback)).not.toBe(cookieOf(first.callback));
    const [{ count }] = (await system.sql`SELECT count(*)::int AS count FROM users WHERE lower(email) = 'ada@example.com'`) as unknown as [
      { count: number },
    ];
    expect(count).toBe(1);
  });

  it('signs an existing password account with the same e-mail in and links it', async () => {
    const { userId, position } = await registerAccount(
      system.accounts,
      {
        username: 'katherine',
        email: 'katherine@example.com',
        password: 'secret123',
        role: 'student',
        firstName: 'Katherine',
        lastName: 'Johnson',
        phone: null,
        authProvider: 'local',
        googleId: null,
        emailVerified: true,
        termsAccepted: { version: '1.0', ip: null },
        student: { grade: 'Grade 11', isUniversityStudent: false },
      },
      commandContext({ now: system.clock.now() }),
    );
    await waitForProjections(system.sql, ['users', 'students'], position);
    const { callback } = await devSignIn('student', { email: 'katherine@example.com' });
    expect(callback.headers.location).toBe('/student');
    expect(await me(cookieOf(callback))).toMatchObject({ id: userId, username: 'katherine', authProvider: 'local' });
    const [row] = await system.sql<{ google_id: string }[]>`SELECT google_id FROM users WHERE id = ${userId}`;
    expect(row?.google_id).toBe('dev:katherine@example.com');
  });

  it('turns a new tutor into a pending application, with no account and no session', async () => {
    const email = 'dorothy.vaughan@example.com';
    const { callback } = await devSignIn('tutor', { email, firstName: 'Dorothy', lastName: 'Vaughan' });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/tutor-login?status=submitted');
    expect(cookiePair(callback, 'tm_session')).toBeUndefined();
    expect(await system.sql`SELECT 1 FROM users WHERE lower(email) = ${email}`).toHaveLength(0);
    const applications = await system.sql<{ email: string; first_name: string; status: string; google_id: string }[]>`
      SELECT email, first_name, status, google_id FROM pending_tutor_applications WHERE email = ${email}`;
    expect(applications).toEqual([{ email, first_name: 'Dorothy', status: 'pending', google_id: `dev:${email}` }]);

    const stream = tutorApplicationStreamId(deterministicUuid(`tutor-applicant/dev:${email}`));
    const sealed = await system.store.readStreamSealed(stream);
    expect(sealed.map((e) => e.type)).toEqual(['TutorApplicationSubmitted']);
    expect(JSON.stringify(sealed)).not.toContain(email);
    expect(JSON.stringify(sealed)).not.toContain('Dorothy');
    expect((await system.store.readStream(stream))[0]?.data).toMatchObject({ email, firstName: 'Dorothy' });

    // Applying again changes nothing.
    const again = await devSignIn('tutor', { email });
    expect(again.callback.headers.location).toBe('/tutor-login?status=submitted');
    expect(await system.store.readStreamSealed(stream)).toHaveLength(1);
  });

  it('signs an approved tutor (a tutor account with that e-mail) in to /tutor', async () => {
    const { userId, position } = await registerAccount(
      system.accounts,
      {
        username: 'mary.jackson',
        email: 'mary.jackson@example.com',
        password: null,
        role: 'tutor',
        firstName: 'Mary',
        lastName: 'Jackson',
        phone: null,
        authProvider: 'google',
        googleId: null,
        emailVerified: true,
        termsAccepted: { version: '1.0', ip: null },
      },
      commandContext({ now: system.clock.now() }),
    );
    await waitForProjections(system.sql, ['users'], position);
    const { callback } = await devSignIn('tutor', { email: 'mary.jackson@example.com' });
    expect(callback.headers.location).toBe('/tutor');
    expect(await me(cookieOf(callback))).toMatchObject({ id: userId, role: 'tutor' });
  });

  it('refuses a callback whose state does not match the browser', async () => {
    const { location, oauthCookie } = await start('student');
    const posted = await consent(location, { email: 'mallory@example.com' });
    expect(posted.statusCode).toBe(302);
    const url = new URL(String(posted.headers.location), 'http://x');
    const tampered = `${url.pathname}?${new URLSearchParams({ code: url.searchParams.get('code') ?? '', state: randomBytes(32).toString('base64url') })}`;
    const res = await app.inject({ method: 'GET', url: tampered, headers: { cookie: oauthCookie } });
    expect(res.headers.location).toBe('/login?error=oauth_state');
    expect(cookiePair(res, 'tm_session')).toBeUndefined();

    const noCookie = await app.inject({ method: 'GET', url: String(posted.headers.location) });
    expect(noCookie.headers.location).toBe('/login?error=oauth_state');
    const forged = oauthCookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const badSignature = await app.inject({ method: 'GET', url: String(posted.headers.location), headers: { cookie: forged } });
    expect(badSignature.headers.location).toBe('/login?error=oauth_state');
  });

  it('accepts a dev code once, and only with the verifier of the flow that asked for it', async () => {
    const { callback, callbackUrl, oauthCookie } = await devSignIn('student', { email: 'replay@example.com' });
    expect(callback.headers.location).toBe('/student');
    const replayed = await app.inject({ method: 'GET', url: callbackUrl, headers: { cookie: oauthCookie } });
    expect(replayed.headers.location).toBe('/login?error=google');
    expect(cookiePair(replayed, 'tm_session')).toBeUndefined();

    // A code bound to another flow's PKCE challenge is refused for this flow.
    const mine = await start('student');
    const theirs = await start('student');
    const theirPage = await app.inject({ method: 'GET', url: theirs.location });
    const posted = await consent(
      mine.location,
      { email: 'pkce@example.com' },
      { code_challenge: hidden(theirPage.body, 'code_challenge') },
    );
    expect(posted.statusCode).toBe(302);
    const res = await app.inject({ method: 'GET', url: String(posted.headers.location), headers: { cookie: mine.oauthCookie } });
    expect(res.headers.location).toBe('/login?error=google');
  });

  it('answers an unknown or missing userType with 400, and a denied consent with /login?error=google', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/google?userType=admin' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/auth/google' })).statusCode).toBe(400);
    const { location, oauthCookie } = await start('tutor');
    const page = await app.inject({ method: 'GET', url: location });
    const cancel = page.body.match(/<a href="([^"]+)">Cancel<\/a>/)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const denied = await app.inject({ method: 'GET', url: cancel, headers: { cookie: oauthCookie } });
    expect(denied.headers.location).toBe('/login?error=google');
  });

  it('shows the form again with an accessible error for an invalid e-mail, and escapes what it echoes', async () => {
    const { location } = await start('student');
    const res = await consent(location, { email: 'not-an-email"><script>x</script>', firstName: '<b>' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain('aria-invalid="true" aria-describedby="email-error"');
    expect(res.body).not.toContain('<script>x</script>');
    expect(res.body).toContain('value="&lt;b&gt;"');
    const forged = await app.inject({
      method: 'GET',
      url: '/api/auth/dev/consent?state=%22%3E%3Cscript%3E&userType=student&code_challenge=x',
    });
    expect(forged.statusCode).toBe(400);
  });
});

// ---------------------------------------------------------------------------------------------
// The real Google adapter against a local server speaking Google's wire format.

interface FakeGoogle {
  url: string;
  /** Codes the fake "consent" granted: what the token endpoint answers for each. */
  grants: Map<string, { challenge: string; redirectUri: string; claims: Record<string, unknown>; signWith?: KeyObject }>;
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

const CLIENT_ID = 'topmark-test.apps.googleusercontent.com';
const CLIENT_SECRET = 'test-secret';

function jwt(privateKey: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${part({ alg: 'RS256', kid, typ: 'JWT' })}.${part({ iss: 'https://accounts.google.com', aud: CLIENT_ID, iat: now, exp: now + 3600, ...claims })}`;
  return `${body}.${sign('sha256', Buffer.from(body), privateKey).toString('base64url')}`;
}

async function startFakeGoogle(): Promise<FakeGoogle> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key-1';
  const grants: FakeGoogle['grants'] = new Map();
  const tokenRequests: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/oauth2/v1/certs') {
      // Google's v1 format: { kid: PEM }. (Google serves X.509 certificates; a public key PEM verifies the same way.)
      return json(200, { [kid]: publicKey.export({ type: 'spki', format: 'pem' }) });
    }
    if (req.method === 'POST' && req.url === '/token') {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        tokenRequests.push(form);
        const grant = grants.get(form.get('code') ?? '');
        grants.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (
          !grant ||
          form.get('grant_type') !== 'authorization_code' ||
          form.get('client_id') !== CLIENT_ID ||
          form.get('client_secret') !== CLIENT_SECRET ||
          form.get('redirect_uri') !== grant.redirectUri ||
          createHash('sha256').update(verifier).digest('base64url') !== grant.challenge
        ) {
          return json(400, { error: 'invalid_grant', error_description: 'Bad Request' });
        }
        return json(200, {
          access_token: `ya29.access-${randomBytes(8).toString('hex')}`,
          refresh_token: `1//refresh-${randomBytes(8).toString('hex')}`,
          expires_in: 3599,
          scope: String(grant.claims.scope ?? 'openid email profile'),
          token_type: 'Bearer',
          id_token: jwt(grant.signWith ?? privateKey, kid, grant.claims),
        });
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    grants,
    tokenRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the Google identity adapter', () => {
  let google: FakeGoogle;
  let provider: GoogleIdentityProvider;
  let googleApp: FastifyInstance;
  beforeAll(async () => {
    google = await startFakeGoogle();
    provider = new GoogleIdentityProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      endpoints: { authUrl: `${google.url}/o/oauth2/v2/auth`, tokenUrl: `${google.url}/token`, certsUrl: `${google.url}/oauth2/v1/certs` },
    });
    // The same system, with Google instead of the dev provider.
    googleApp = await buildApp({ ...system, identity: provider } as System, { logger: false });
  });
  afterAll(async () => {
    await googleApp.close();
    await google.close();
  });

  const redirectUri = 'http://127.0.0.1:3000/api/auth/google/callback';

  it('asks tutors for offline calendar access with a fresh consent, and students only to sign in, both with PKCE S256', () => {
    const challenge = pkceChallenge('v'.repeat(43));
    const tutor = new URL(provider.authorizationUrl({ state: 's1', codeChallenge: challenge, userType: 'tutor', redirectUri }));
    expect(`${tutor.origin}${tutor.pathname}`).toBe(`${google.url}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(tutor.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: redirectUri,
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect(tutor.searchParams.get('scope')?.split(' ')).toEqual(['openid', 'email', 'profile', CALENDAR_SCOPE]);

    const student = new URL(provider.authorizationUrl({ state: 's2', codeChallenge: challenge, userType: 'student', redirectUri }));
    expect(student.searchParams.get('scope')?.split(' ')).toEqual(['openid', 'email', 'profile']);
    expect(student.searchParams.get('code_challenge_method')).toBe('S256');
    expect(student.searchParams.get('access_type')).toBeNull();
    expect(student.searchParams.get('prompt')).toBeNull();
  });

  it('exchanges a code with its verifier and believes only a verified id token', async () => {
    const verifier = randomBytes(32).toString('base64url');
    google.grants.set('code-1', {
      challenge: pkceChallenge(verifier),
      redirectUri,
      claims: { sub: '1234567890', email: 'Alan@Example.com', email_verified: true, given_name: 'Alan', family_name: 'Turing' },
    });
    const before = Date.now();
    const identity = await provider.exchange({ code: 'code-1', codeVerifier: verifier, redirectUri });
    expect(identity).toMatchObject({
      subject: '1234567890',
      email: 'alan@example.com',
      emailVerified: true,
      firstName: 'Alan',
      lastName: 'Turing',
    });
    expect(identity.accessToken).toMatch(/^ya29\./);
    expect(identity.refreshToken).toMatch(/^1\/\//);
    expect(identity.expiresAt?.getTime()).toBeGreaterThanOrEqual(before + 3_500_000);
    expect(google.tokenRequests.at(-1)?.get('code_verifier')).toBe(verifier);

    // A wrong verifier: Google refuses the code.
    google.grants.set('code-2', { challenge: pkceChallenge(verifier), redirectUri, claims: { sub: '1', email: 'a@example.com' } });
    await expect(provider.exchange({ code: 'code-2', codeVerifier: 'x'.repeat(43), redirectUri })).rejects.toThrow();

    // An id token signed with another key, or for another client, is not believed.
    const { privateKey: otherKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const claims = { sub: '1', email: 'a@example.com', email_verified: true };
    google.grants.set('code-3', { challenge: pkceChallenge(verifier), redirectUri, claims, signWith: otherKey });
    await expect(provider.exchange({ code: 'code-3', codeVerifier: verifier, redirectUri })).rejects.toThrow(/signature/i);
    google.grants.set('code-4', { challenge: pkceChallenge(verifier), redirectUri, claims: { ...claims, aud: 'someone-else' } });
    await expect(provider.exchange({ code: 'code-4', codeVerifier: verifier, redirectUri })).rejects.toThrow(/audience/i);
    google.grants.set('code-5', { challenge: pkceChallenge(verifier), redirectUri, claims: { ...claims, iss: 'https://evil.example' } });
    await expect(provider.exchange({ code: 'code-5', codeVerifier: verifier, redirectUri })).rejects.toThrow(/issuer/i);
  });

  it('signs an approved tutor in through the routes and keeps the tokens sealed', async () => {
    const { userId, position } = await registerAccount(
      system.accounts,
      {
        username: 'annie.easley',
        email: 'annie.easley@example.com',
        password: null,
        role: 'tutor',
        firstName: 'Annie',
        lastName: 'Easley',
        phone: null,
        authProvider: 'google',
        googleId: null,
        emailVerified: true,
        termsAccepted: { version: '1.0', ip: null },
      },
      commandContext({ now: system.clock.now() }),
    );
    await waitForProjections(system.sql, ['users'], position);

    const { res, location, oauthCookie } = await start('tutor', googleApp);
    expect(res.statusCode).toBe(302);
    const auth = new URL(location);
    expect(auth.origin).toBe(google.url);
    expect(auth.searchParams.get('scope')).toContain(CALENDAR_SCOPE);
    // "Google" grants a code for the challenge it was shown, and sends the browser back.
    google.grants.set('tutor-code', {
      challenge: auth.searchParams.get('code_challenge') ?? '',
      redirectUri: auth.searchParams.get('redirect_uri') ?? '',
      claims: { sub: 'google-annie', email: 'annie.easley@example.com', email_verified: true, given_name: 'Annie', family_name: 'Easley' },
    });
    const callback = await googleApp.inject({
      method: 'GET',
      url: `/api/auth/google/callback?${new URLSearchParams({ code: 'tutor-code', state: auth.searchParams.get('state') ?? '', scope: 'openid' })}`,
      headers: { cookie: oauthCookie },
    });
    expect(callback.headers.location).toBe('/tutor');
    const user = (await googleApp.inject({ method: 'GET', url: '/api/user', headers: { cookie: cookieOf(callback) } })).json();
    expect(user).toMatchObject({ id: userId, role: 'tutor' });
    expect(Date.parse(user.googleTokenExpiry)).toBeGreaterThan(Date.now() + 3_000_000);
    const [row] = await system.sql<{ google_id: string }[]>`SELECT google_id FROM users WHERE id = ${userId}`;
    expect(row?.google_id).toBe('google-annie');

    const linked = (await system.store.readStream(`user-${userId}`)).find((e) => e.type === 'GoogleAccountLinked');
    const refreshToken = (linked?.data as { refreshToken?: string } | undefined)?.refreshToken ?? '';
    expect(refreshToken).toMatch(/^1\/\//);
    const sealed = JSON.stringify(await system.store.readStreamSealed(`user-${userId}`));
    expect(sealed).not.toContain(refreshToken);
    expect(sealed).not.toContain('google-annie');
  });

  it('does not offer the dev consent page when Google is configured', async () => {
    const res = await googleApp.inject({
      method: 'GET',
      url: `/api/auth/dev/consent?state=${'a'.repeat(43)}&userType=student&code_challenge=${'b'.repeat(43)}`,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('Google sign-in of a deactivated account', () => {
  it('is refused with the reason on the login page, stores no tokens and opens no session; reactivation lets it in', async () => {
    const person = { email: 'dee.activated@example.com', firstName: 'Dee', lastName: 'Activated' };
    const first = await devSignIn('student', person);
    const userId = (await me(cookieOf(first.callback))).id as string;
    const staff = commandContext({ actorId: 'admin-for-google', actorRole: 'admin', now: system.clock.now() });
    await deactivateUser(system.accounts, { userId, reason: 'Chargeback fraud' }, staff);
    const linkedBefore = (await system.store.readStream(`user-${userId}`)).filter((e) => e.type === 'GoogleAccountLinked').length;

    const refused = await devSignIn('student', person);
    expect(refused.callback.statusCode).toBe(302);
    expect(refused.callback.headers.location).toBe('/login?error=deactivated');
    expect(cookiePair(refused.callback, 'tm_session')).toBeUndefined();
    expect((await system.store.readStream(`user-${userId}`)).filter((e) => e.type === 'GoogleAccountLinked')).toHaveLength(linkedBefore);

    await reactivateUser(
      system.accounts,
      { userId, reason: 'Cleared' },
      commandContext({ actorId: 'admin-for-google', actorRole: 'admin', now: system.clock.now() }),
    );
    const back = await devSignIn('student', person);
    expect(back.callback.headers.location).not.toMatch(/error/);
    expect((await me(cookieOf(back.callback))).id).toBe(userId);
  });
});
