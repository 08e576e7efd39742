import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { listOutbox } from '../../../adapters/mail/outboxMailer.ts';
import { ERASED } from '../../../adapters/personalData/personalDataVault.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { commandContext, deterministicUuid } from '../../../commands/kit/commandContext.ts';
import { invitationStreamOf } from '../../../commands/tutors/tutorHandlers.ts';
import { tutorApplicationStreamId } from '../../../domain/accounts/tutorApplication.ts';
import type { TutorInvitationListEntry } from '../../../domain/tutors/adminApi.ts';
import {
  INVITATION_NOT_FOUND,
  INVITATION_NOT_OUTSTANDING,
  INVITATION_OUTSTANDING,
  INVITATION_RESENT_RECENTLY,
} from '../../../domain/tutors/invitationDecider.ts';
import { tutorStreamId } from '../../../domain/tutors/tutor.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { APPLICANT_EMAIL_TAKEN } from './tutorRoutes.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let admin: string;
const registration = {
  password: null,
  role: 'student' as const,
  firstName: 'Joan',
  lastName: 'Taken',
  phone: null,
  authProvider: 'local' as const,
  googleId: null,
  emailVerified: true,
  termsAccepted: null,
};
beforeAll(async () => {
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: 'tutor-review-admin',
    email: 'tutor-review-admin@example.com',
    firstName: 'Rev',
    lastName: 'Admin',
    password: 'Tutor-review-admin-2026!',
    role: 'admin',
  });
  const caughtUp = await waitForProjections(system.sql, ['users'], await system.store.committedPosition(), 30_000);
  if (!caughtUp) throw new Error('the read models did not catch up with the admin');
  admin = `tm_session=${(await system.signIns.create(userId, 'admin')).token}`;
});

const hidden = (html: string, name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';
const cookiePair = (res: Awaited<ReturnType<FastifyInstance['inject']>>, name: string) => {
  const set = res.headers['set-cookie'];
  return (Array.isArray(set) ? set : set ? [set] : [])
    .map(String)
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];
};

/** A tutor applies through the dev identity provider (start → consent → callback); the applicant's id. */
async function apply(
  email: string,
  firstName: string,
  lastName: string,
  query = '',
  landing = '/tutor-login?status=submitted',
): Promise<string> {
  const started = await app.inject({ method: 'GET', url: `/api/auth/google?userType=tutor${query}` });
  const page = await app.inject({ method: 'GET', url: String(started.headers.location) });
  const posted = await app.inject({
    method: 'POST',
    url: '/api/auth/dev/consent',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      state: hidden(page.body, 'state'),
      userType: hidden(page.body, 'userType'),
      code_challenge: hidden(page.body, 'code_challenge'),
      email,
      firstName,
      lastName,
    }).toString(),
  });
  const callback = await app.inject({
    method: 'GET',
    url: String(posted.headers.location),
    headers: { cookie: cookiePair(started, 'tm_oauth') ?? '' },
  });
  expect(callback.headers.location).toBe(landing);
  await waitForProjections(system.sql, ['tutor_applications'], await system.store.committedPosition(), 20_000);
  return deterministicUuid(`tutor-applicant/dev:${email}`);
}

const asAdmin = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

async function mailTo(to: string, subjectPart: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await listOutbox(system.sql, { to })).find((m) => m.subject.includes(subjectPart));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no "${subjectPart}" mail for ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('tutor invitations', () => {
  it('invites a trimmed address, mails the sign-in link, and links the application to the invitation', async () => {
    const res = await asAdmin('POST', '/api/admin/tutors/invite', { email: '  Ada.Invited@Example.com ' });
    expect(res.statusCode).toBe(201);
    const { invitationId, expiresAt } = res.json() as { invitationId: string; expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(13 * 86_400_000);
    const mail = await mailTo('ada.invited@example.com', 'invited to tutor');
    expect(mail.text).toContain(`${system.config.PUBLIC_URL.replace(/\/+$/, '')}/tutor-login`);

    const applicantId = await apply('ada.invited@example.com', 'Ada', 'Invited');
    const [row] = await system.sql<{ invitation_id: string | null }[]>`
      SELECT invitation_id FROM pending_tutor_applications WHERE user_id = ${applicantId}`;
    expect(row?.invitation_id).toBe(invitationId);
    await waitForProjections(system.sql, ['tutors'], await system.store.committedPosition(), 20_000);
    const [invitation] = await system.sql<
      { status: string; email: string }[]
    >`SELECT status, email FROM tutor_invitations WHERE id = ${invitationId}`;
    expect(invitation).toEqual({ status: 'accepted', email: 'ada.invited@example.com' });
  });

  it('refuses an invalid address (400) and non-admins (401/403)', async () => {
    for (const email of ['', '   ', 'nobody', 'a@b'])
      expect((await asAdmin('POST', '/api/admin/tutors/invite', { email })).statusCode).toBe(400);
    expect((await asAdmin('POST', '/api/admin/tutors/invite', {})).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/admin/tutors/invite', payload: { email: 'x@example.com' } })).statusCode).toBe(
      401,
    );
    const student = `tm_session=${(await system.signIns.create('someone', 'student')).token}`;
    const refused = await app.inject({ method: 'GET', url: '/api/admin/tutor-applications', headers: { cookie: student } });
    expect(refused.statusCode).toBe(403);
  });
});

describe('outstanding invitations: one per address, resent, revoked', () => {
  const invitations = async () => (await asAdmin('GET', '/api/admin/tutors/invitations')).json() as TutorInvitationListEntry[];
  const invitationMails = async (to: string) =>
    (await listOutbox(system.sql, { to })).filter((m) => m.subject.includes('invited to tutor'));
  /** Every mail the saga had to send has gone out: its reactor queued the jobs and no new mail arrives for a while. */
  async function mailsSettled(to: string): Promise<number> {
    expect(await waitForProjections(system.sql, ['tutor_mail_saga'], await system.store.committedPosition(), 20_000)).toBe(true);
    let count = (await invitationMails(to)).length;
    for (let quiet = 0; quiet < 10; ) {
      await new Promise((r) => setTimeout(r, 100));
      const now = (await invitationMails(to)).length;
      quiet = now === count ? quiet + 1 : 0;
      count = now;
    }
    return count;
  }
  const eventsOf = async (email: string) => (await system.store.readStream(invitationStreamOf(email))).map((e) => e.type);

  it('20 concurrent invitations of one address record one invitation and send one mail; the others are told to resend', async () => {
    const email = 'race.invited@example.com';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        asAdmin('POST', '/api/admin/tutors/invite', { email: i % 2 ? email : ` ${email.toUpperCase()} ` }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused.map((a) => a.statusCode)).toEqual(Array(19).fill(409));
    for (const a of refused) expect(a.json()).toEqual({ message: INVITATION_OUTSTANDING });
    expect(await eventsOf(email)).toEqual(['TutorInvited']);
    await mailTo(email, 'invited to tutor');
    expect(await mailsSettled(email)).toBe(1);

    // Listed at once (the answer waited for the read model), by the admin's name.
    const listed = (await invitations()).filter((i) => i.email === email);
    expect(listed).toEqual([
      expect.objectContaining({ status: 'outstanding', sentCount: 1, invitedByName: 'Rev Admin', acceptedAt: null, revokedAt: null }),
    ]);
    // Inviting again later is refused the same way: still one mail.
    const again = await asAdmin('POST', '/api/admin/tutors/invite', { email });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: INVITATION_OUTSTANDING });
  });

  it('resends an invitation sent over a minute ago (a second mail, counted), but not twice within a minute', async () => {
    const email = 'resend.invited@example.com';
    const invitationId = randomUUID();
    const sentAt = new Date(Date.now() - 5 * 60_000);
    // Invited five minutes ago: recorded directly, as the command would have then.
    await system.store.append(
      invitationStreamOf(email),
      [
        {
          id: randomUUID(),
          type: 'TutorInvited',
          metadata: {},
          data: {
            invitationId,
            email,
            invitedBy: null,
            signInUrl: 'https://topmark.test/tutor-login',
            expiresAt: new Date(sentAt.getTime() + 14 * 86_400_000).toISOString(),
            at: sentAt.toISOString(),
          },
        },
      ],
      'no_stream',
    );
    await mailTo(email, 'invited to tutor');
    await waitForProjections(system.sql, ['tutors'], await system.store.committedPosition(), 20_000);

    const resent = await asAdmin('POST', `/api/admin/tutors/invitations/${invitationId}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ ok: true, invitationId });
    const row = (await invitations()).find((i) => i.id === invitationId);
    expect(row).toEqual(expect.objectContaining({ status: 'outstanding', sentCount: 2, invitedByName: null }));
    expect(Date.parse(row?.lastSentAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    const tooSoon = await asAdmin('POST', `/api/admin/tutors/invitations/${invitationId}/resend`);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toEqual({ message: INVITATION_RESENT_RECENTLY });
    expect(await eventsOf(email)).toEqual(['TutorInvited', 'TutorInvitationResent']);
    expect(await mailsSettled(email)).toBe(2);
    const mails = await invitationMails(email);
    expect(mails.every((m) => m.text.includes('https://topmark.test/tutor-login'))).toBe(true);
  });

  it('revokes an invitation: listed as revoked, not resent, and signing in with it is refused until invited again', async () => {
    const email = 'revoked.invited@example.com';
    const invited = await asAdmin('POST', '/api/admin/tutors/invite', { email });
    expect(invited.statusCode).toBe(201);
    const { invitationId } = invited.json() as { invitationId: string };

    const revoked = await asAdmin('POST', `/api/admin/tutors/invitations/${invitationId}/revoke`);
    expect(revoked.statusCode).toBe(200);
    const row = (await invitations()).find((i) => i.id === invitationId);
    expect(row).toEqual(expect.objectContaining({ status: 'revoked', revokedAt: expect.any(String) }));
    const [recorded] = (await system.store.readStream(invitationStreamOf(email))).filter((e) => e.type === 'TutorInvitationRevoked');
    // The admin is the actor, in the event and in its metadata.
    const [adminId] = await system.sql<{ id: string }[]>`SELECT id FROM users WHERE username = 'tutor-review-admin'`;
    expect(recorded?.data).toEqual({ invitationId, revokedBy: adminId?.id, at: expect.any(String) });
    expect(recorded?.metadata.actorId).toBe(adminId?.id);

    for (const action of ['revoke', 'resend']) {
      const refused = await asAdmin('POST', `/api/admin/tutors/invitations/${invitationId}/${action}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: INVITATION_NOT_OUTSTANDING });
    }
    expect(await eventsOf(email)).toEqual(['TutorInvited', 'TutorInvitationRevoked']);

    // The link stops working: the invitee is told, and no application is recorded.
    await apply(email, 'Rita', 'Revoked', '', '/tutor-login?status=invitation_revoked');
    const applications = await system.sql`SELECT 1 FROM pending_tutor_applications WHERE lower(email) = ${email}`;
    expect(applications).toHaveLength(0);

    // Invited again, the address may apply, linked to the new invitation.
    const renewed = await asAdmin('POST', '/api/admin/tutors/invite', { email });
    expect(renewed.statusCode).toBe(201);
    const { invitationId: renewedId } = renewed.json() as { invitationId: string };
    const applicantId = await apply(email, 'Rita', 'Revoked');
    const [linked] = await system.sql<{ invitation_id: string | null }[]>`
      SELECT invitation_id FROM pending_tutor_applications WHERE user_id = ${applicantId}`;
    expect(linked?.invitation_id).toBe(renewedId);
    await waitForProjections(system.sql, ['tutors'], await system.store.committedPosition(), 20_000);
    expect((await invitations()).find((i) => i.id === renewedId)?.status).toBe('accepted');
    // Accepted: neither resent nor revoked any more.
    expect((await asAdmin('POST', `/api/admin/tutors/invitations/${renewedId}/revoke`)).statusCode).toBe(409);
  });

  it('an invitation revoked before its mail went out is not mailed', async () => {
    const email = 'revoked.early@example.com';
    const invitationId = randomUUID();
    const at = new Date().toISOString();
    await system.store.append(
      invitationStreamOf(email),
      [
        {
          id: randomUUID(),
          type: 'TutorInvited',
          metadata: {},
          data: {
            invitationId,
            email,
            invitedBy: null,
            signInUrl: 'https://topmark.test/tutor-login',
            expiresAt: '2099-01-01T00:00:00.000Z',
            at,
          },
        },
        { id: randomUUID(), type: 'TutorInvitationRevoked', metadata: {}, data: { invitationId, revokedBy: null, at } },
      ],
      'no_stream',
    );
    expect(await mailsSettled(email)).toBe(0);
  });

  it('an unknown invitation is not found (404), and nothing is appended', async () => {
    const before = await system.store.committedPosition();
    const listed = (await invitations()).length;
    for (const id of [randomUUID(), 'not-a-uuid', '../../x'])
      for (const action of ['resend', 'revoke']) {
        const res = await asAdmin('POST', `/api/admin/tutors/invitations/${encodeURIComponent(id)}/${action}`);
        expect(res.statusCode).toBe(404);
        if (id !== '../../x') expect(res.json()).toEqual({ message: INVITATION_NOT_FOUND });
      }
    expect((await invitations()).length).toBe(listed);
    expect(await system.store.committedPosition()).toEqual(before);
  });

  it('only admins list, resend and revoke invitations (401 signed out, 403 otherwise)', async () => {
    const email = 'guarded.invited@example.com';
    const { invitationId } = (await asAdmin('POST', '/api/admin/tutors/invite', { email })).json() as { invitationId: string };
    for (const role of ['student', 'parent', 'tutor'] as const) {
      const cookie = `tm_session=${(await system.signIns.create(`someone-${role}`, role)).token}`;
      expect((await app.inject({ method: 'GET', url: '/api/admin/tutors/invitations', headers: { cookie } })).statusCode).toBe(403);
      for (const action of ['resend', 'revoke'])
        expect(
          (await app.inject({ method: 'POST', url: `/api/admin/tutors/invitations/${invitationId}/${action}`, headers: { cookie } }))
            .statusCode,
        ).toBe(403);
    }
    expect((await app.inject({ method: 'GET', url: '/api/admin/tutors/invitations' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: `/api/admin/tutors/invitations/${invitationId}/revoke` })).statusCode).toBe(401);
    expect(await eventsOf(email)).toEqual(['TutorInvited']);
  });
});

describe('reviewing tutor applications', () => {
  it('lists pending applications as admin-listed users, on both routes', async () => {
    const applicantId = await apply('grace.pending@example.com', 'Grace', 'Pending');
    for (const url of ['/api/admin/tutor-applications', '/api/admin/tutors/pending']) {
      const listed = (await asAdmin('GET', url)).json() as Record<string, unknown>[];
      expect(listed.find((u) => u.id === applicantId)).toEqual({
        id: applicantId,
        firstName: 'Grace',
        lastName: 'Pending',
        username: null,
        email: 'grace.pending@example.com',
        role: 'tutor',
        status: 'pending',
        googleId: 'dev:grace.pending@example.com',
        authProvider: 'google',
        createdAt: expect.any(String),
      });
    }
  });

  it('approval registers a verified Google tutor with a profile, mails the applicant, and refuses a second approval (409)', async () => {
    const email = 'katherine.approved@example.com';
    const applicantId = await apply(email, 'Katherine', 'Approved');
    const before = (await asAdmin('GET', '/api/admin/overview')).json() as Record<string, number>;
    const res = await asAdmin('POST', `/api/admin/approve-tutor/${applicantId}`);
    expect(res.statusCode).toBe(200);
    const [user] = await system.sql<{ id: string; role: string; auth_provider: string; email_verified: boolean; google_id: string }[]>`
      SELECT id, role, auth_provider, email_verified, google_id FROM users WHERE lower(email) = ${email}`;
    expect(user).toMatchObject({ role: 'tutor', auth_provider: 'google', email_verified: true, google_id: `dev:${email}` });
    // No agreement recorded with this application: the tutor accepts it at the first sign-in.
    expect(await system.sql`SELECT terms_accepted_at FROM users WHERE id = ${user?.id ?? ''}`).toEqual([{ terms_accepted_at: null }]);
    const profile = await system.store.readStream(tutorStreamId(user?.id ?? ''));
    expect(profile.map((e) => e.data)).toEqual([expect.objectContaining({ hourlyRate: null, onboardingCompleted: false })]);
    expect(await system.sql`SELECT onboarding_completed, hourly_rate_cents FROM tutors WHERE user_id = ${user?.id ?? ''}`).toEqual([
      { onboarding_completed: false, hourly_rate_cents: null },
    ]);
    const after = (await asAdmin('GET', '/api/admin/overview')).json() as Record<string, number>;
    expect(after.totalTutors).toBe((before.totalTutors ?? 0) + 1);
    expect(after.pendingApprovals).toBe((before.pendingApprovals ?? 0) - 1);
    expect(((await asAdmin('GET', '/api/admin/tutors/pending')).json() as { id: string }[]).some((u) => u.id === applicantId)).toBe(false);
    await mailTo(email, 'approved');
    // The account holds the tutor's data now: the application's copy is shredded (deleting the account erases everything).
    const [application] = await system.store.readStream(tutorApplicationStreamId(applicantId));
    expect(application?.data).toMatchObject({ email: ERASED, firstName: ERASED });

    for (const url of [`/api/admin/approve-tutor/${applicantId}`, `/api/admin/tutors/${applicantId}/approve`]) {
      const again = await asAdmin('POST', url);
      expect(again.statusCode).toBe(409);
      expect((again.json() as { message: string }).message).toMatch(/already been approved/);
    }
    expect(await system.sql`SELECT 1 FROM users WHERE lower(email) = ${email}`).toHaveLength(1);
  });

  it('the agreement accepted on /tutor-signup is recorded on the application and carried to the approved account', async () => {
    const email = 'annie.easley@example.com';
    const applicantId = await apply(email, 'Annie', 'Easley', '&termsAcceptedVersion=1.0');
    const [submitted] = await system.store.readStream(tutorApplicationStreamId(applicantId));
    expect(submitted?.data).toMatchObject({ termsAcceptedVersion: '1.0' });
    expect((await asAdmin('POST', `/api/admin/approve-tutor/${applicantId}`)).statusCode).toBe(200);
    const [user] = await system.sql<{ terms_accepted_at: Date | null; terms_accepted_version: string | null }[]>`
      SELECT terms_accepted_at, terms_accepted_version FROM users WHERE lower(email) = ${email}`;
    // Accepted when applying (not at the approval): the new tutor is not sent to the Student/Parent Agreement.
    expect(user?.terms_accepted_version).toBe('1.0');
    expect(user?.terms_accepted_at?.toISOString()).toBe((submitted?.data as { at: string } | undefined)?.at);

    // Another version than the current one is not taken as accepted.
    const bad = await app.inject({ method: 'GET', url: '/api/auth/google?userType=tutor&termsAcceptedVersion=0.9' });
    expect(bad.statusCode).toBe(400);
  });

  it('rejection mails the applicant; a rejected application cannot be approved (409)', async () => {
    const email = 'mary.rejected@example.com';
    const applicantId = await apply(email, 'Mary', 'Rejected');
    expect((await asAdmin('POST', `/api/admin/tutors/${applicantId}/reject`)).statusCode).toBe(200);
    await mailTo(email, 'tutor application');
    expect((await asAdmin('POST', `/api/admin/tutors/${applicantId}/approve`)).statusCode).toBe(409);
    expect(await system.sql`SELECT 1 FROM users WHERE lower(email) = ${email}`).toHaveLength(0);
    // Signing in again: the decision, not "Application Submitted!", and no new application.
    expect(await apply(email, 'Mary', 'Rejected', '', '/tutor-login?status=rejected')).toBe(applicantId);
    expect((await asAdmin('POST', `/api/admin/tutors/${applicantId}/approve`)).statusCode).toBe(409);
  });

  it("denial erases the applicant's data (read back as [erased]); a denied application cannot be approved (409)", async () => {
    const email = 'hedy.denied@example.com';
    const applicantId = await apply(email, 'Hedy', 'Denied');
    const res = await asAdmin('DELETE', `/api/admin/deny-tutor-application/${applicantId}`);
    expect(res.statusCode).toBe(200);
    const [submitted] = await system.store.readStream(tutorApplicationStreamId(applicantId));
    expect(submitted?.data).toMatchObject({ email: ERASED, firstName: ERASED, lastName: ERASED });
    const [row] = await system.sql<{ email: string; first_name: string; status: string }[]>`
      SELECT email, first_name, status FROM pending_tutor_applications WHERE user_id = ${applicantId}`;
    expect(row).toEqual({ email: ERASED, first_name: ERASED, status: 'denied' });
    expect(((await asAdmin('GET', '/api/admin/tutor-applications')).json() as { id: string }[]).some((u) => u.id === applicantId)).toBe(
      false,
    );
    expect((await asAdmin('POST', `/api/admin/approve-tutor/${applicantId}`)).statusCode).toBe(409);
    expect((await asAdmin('DELETE', `/api/admin/deny-tutor-application/${applicantId}`)).statusCode).toBe(200);
    // Signing in again: the decision, and the erased application stays erased.
    expect(await apply(email, 'Hedy', 'Denied', '', '/tutor-login?status=denied')).toBe(applicantId);
    const [again] = await system.store.readStream(tutorApplicationStreamId(applicantId));
    expect(again?.data).toMatchObject({ email: ERASED });
  });

  it('refuses (409) to approve an applicant whose address has meanwhile become an account', async () => {
    const email = 'joan.taken@example.com';
    const applicantId = await apply(email, 'Joan', 'Taken');
    await registerAccount(
      system.accounts,
      { ...registration, username: 'joan-taken', email },
      commandContext({ commandId: deterministicUuid('joan-taken-account'), now: system.clock.now() }),
    );
    await waitForProjections(system.sql, ['users'], await system.store.committedPosition(), 20_000);
    const res = await asAdmin('POST', `/api/admin/tutors/${applicantId}/approve`);
    expect(res.statusCode).toBe(409);
    expect((res.json() as { message: string }).message).toBe(APPLICANT_EMAIL_TAKEN);
    const listed = (await asAdmin('GET', '/api/admin/tutors/pending')).json() as { id: string; status: string }[];
    expect(listed.find((u) => u.id === applicantId)?.status).toBe('pending');
  });

  it('answers 404 for an unknown applicant', async () => {
    expect((await asAdmin('POST', '/api/admin/approve-tutor/not-a-uuid')).statusCode).toBe(404);
    expect((await asAdmin('POST', `/api/admin/tutors/${deterministicUuid('nobody')}/reject`)).statusCode).toBe(404);
  });
});
