import { describe, expect, it } from 'vitest';
import { apiSpec, SPEC_NOW } from '../../../tests/support/apiSpec.ts';
import type { DomainEvent } from '../../domain/kit/decider.ts';
import { INVITATION_RESEND_INTERVAL_SECONDS, INVITATION_VALIDITY_DAYS } from '../../domain/tutors/invitation.ts';
import {
  INVALID_INVITATION_EMAIL,
  INVITATION_NOT_FOUND,
  INVITATION_NOT_OUTSTANDING,
  INVITATION_OUTSTANDING,
  INVITATION_RESENT_RECENTLY,
  INVITATION_REVOKED,
} from '../../domain/tutors/invitationDecider.ts';
import { deterministicUuid } from '../kit/commandContext.ts';
import { inviteTutor } from './inviteTutor.ts';
import { invitationStreamOf, tutorHandlers } from './tutorHandlers.ts';

/**
 * The tutor invitations' rules on the in-memory event store (no database): one outstanding
 * invitation per address, a resend at most once a minute, a revoked or lapsed invitation is no
 * longer resent or revoked, a revoked one refuses the applicant's sign-in. Inviting is the feature's
 * use case (`inviteTutor`); resend and revoke are specified on the invitation's stream
 * (`invitationStreams`), because their use cases (`manageInvitation.ts`) first find the stream
 * through the invitations read model (SQL), which keeps its PostgreSQL suite (tutorRoutes.test.ts).
 */
const spec = apiSpec(tutorHandlers);

const EMAIL = 'ada@example.com';
const stream = invitationStreamOf(EMAIL);
const SIGN_IN_URL = 'https://topmark.example/tutor-login';
const INVITATION_ID = '3b1f6c2a-8d4e-4f5a-9b6c-7d8e9f0a1b2c';
const OLDER_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const DAY = 86_400_000;
const ago = (ms: number) => new Date(SPEC_NOW.getTime() - ms).toISOString();
const at = SPEC_NOW.toISOString();

const invited = (invitationId: string, sentAt: string): DomainEvent => ({
  type: 'TutorInvited',
  data: {
    invitationId,
    email: EMAIL,
    signInUrl: SIGN_IN_URL,
    invitedBy: 'admin-1',
    expiresAt: new Date(Date.parse(sentAt) + INVITATION_VALIDITY_DAYS * DAY).toISOString(),
    at: sentAt,
  },
});
const revoked = (invitationId: string): DomainEvent => ({
  type: 'TutorInvitationRevoked',
  data: { invitationId, revokedBy: 'admin-1', at: ago(DAY) },
});

describe('tutor invitations: one outstanding invitation per address', () => {
  it('an admin invites an address: the invitation is opened on the address stream for the validity days', async () => {
    const commandId = 'invite-ada';
    const invitationId = deterministicUuid(`tutor-invitation/${commandId}`);
    const expiresAt = new Date(SPEC_NOW.getTime() + INVITATION_VALIDITY_DAYS * DAY).toISOString();
    await spec
      .given()
      .when((h, call) => inviteTutor(h, ' Ada@Example.com ', SIGN_IN_URL, call.as('admin', 'admin-1', { commandId })))
      .thenAppended({
        appended: {
          [stream]: [
            {
              type: 'TutorInvited',
              data: { invitationId, email: EMAIL, signInUrl: SIGN_IN_URL, invitedBy: 'admin-1', expiresAt, at },
            },
          ],
        },
        answer: { invitationId, expiresAt, position: expect.any(String) },
      });
  });

  it('an address without a valid form is refused', async () => {
    await spec
      .given()
      .when((h, call) => inviteTutor(h, 'not-an-address', SIGN_IN_URL, call.as('admin', 'admin-1')))
      .thenRefused(INVALID_INVITATION_EMAIL, 'invalid');
  });

  it('an address whose invitation is still open is refused: the admin resends it instead', async () => {
    await spec
      .given({ [stream]: [invited(INVITATION_ID, ago(DAY))] })
      .when((h, call) => inviteTutor(h, EMAIL, SIGN_IN_URL, call.as('admin', 'admin-1')))
      .thenRefused(INVITATION_OUTSTANDING, 'conflict');
  });

  it('an address whose invitation lapsed is invited again: a new invitation replaces it', async () => {
    const commandId = 'invite-ada-again';
    const invitationId = deterministicUuid(`tutor-invitation/${commandId}`);
    await spec
      .given({ [stream]: [invited(OLDER_ID, ago((INVITATION_VALIDITY_DAYS + 1) * DAY))] })
      .when((h, call) => inviteTutor(h, EMAIL, SIGN_IN_URL, call.as('admin', 'admin-1', { commandId })))
      .thenAppended({ appended: { [stream]: [invited(invitationId, at)] } });
  });
});

describe('tutor invitations: resend and revoke act on the outstanding invitation only', () => {
  const resend = (invitationId: string) => ({ type: 'ResendTutorInvitation' as const, data: { invitationId } });
  const revoke = (invitationId: string) => ({ type: 'RevokeTutorInvitation' as const, data: { invitationId } });

  it('an outstanding invitation sent over a minute ago is mailed again', async () => {
    await spec
      .given({ [stream]: [invited(INVITATION_ID, ago(INVITATION_RESEND_INTERVAL_SECONDS * 1000))] })
      .when((h, call) => h.invitationStreams.handle(stream, resend(INVITATION_ID), call.as('admin', 'admin-1')))
      .thenAppended({
        appended: { [stream]: [{ type: 'TutorInvitationResent', data: { invitationId: INVITATION_ID, resentBy: 'admin-1', at } }] },
      });
  });

  it('an invitation sent less than a minute ago is not mailed again', async () => {
    await spec
      .given({ [stream]: [invited(INVITATION_ID, ago(INVITATION_RESEND_INTERVAL_SECONDS * 1000 - 1))] })
      .when((h, call) => h.invitationStreams.handle(stream, resend(INVITATION_ID), call.as('admin', 'admin-1')))
      .thenRefused(INVITATION_RESENT_RECENTLY, 'rate_limited');
  });

  it('an outstanding invitation is revoked', async () => {
    await spec
      .given({ [stream]: [invited(INVITATION_ID, ago(DAY))] })
      .when((h, call) => h.invitationStreams.handle(stream, revoke(INVITATION_ID), call.as('admin', 'admin-1')))
      .thenAppended({
        appended: { [stream]: [{ type: 'TutorInvitationRevoked', data: { invitationId: INVITATION_ID, revokedBy: 'admin-1', at } }] },
      });
  });

  it('a revoked or lapsed invitation is neither resent nor revoked', async () => {
    await spec
      .given({ [stream]: [invited(INVITATION_ID, ago(2 * DAY)), revoked(INVITATION_ID)] })
      .when((h, call) => h.invitationStreams.handle(stream, resend(INVITATION_ID), call.as('admin', 'admin-1')))
      .thenRefused(INVITATION_NOT_OUTSTANDING, 'conflict');
    await spec
      .given({ [stream]: [invited(INVITATION_ID, ago((INVITATION_VALIDITY_DAYS + 1) * DAY))] })
      .when((h, call) => h.invitationStreams.handle(stream, revoke(INVITATION_ID), call.as('admin', 'admin-1')))
      .thenRefused(INVITATION_NOT_OUTSTANDING, 'conflict');
  });

  it("an invitation the address's newer one replaced is not found", async () => {
    await spec
      .given({ [stream]: [invited(OLDER_ID, ago((INVITATION_VALIDITY_DAYS + 2) * DAY)), invited(INVITATION_ID, ago(DAY))] })
      .when((h, call) => h.invitationStreams.handle(stream, revoke(OLDER_ID), call.as('admin', 'admin-1')))
      .thenRefused(INVITATION_NOT_FOUND, 'not_found');
  });
});

describe('tutor invitations: the applicant signs in', () => {
  const accept = { type: 'AcceptTutorInvitation' as const, data: { applicationId: 'application-1' } };

  it('the open invitation is accepted by the application', async () => {
    await spec
      .given({ [stream]: [invited(INVITATION_ID, ago(DAY))] })
      .when((h, call) => h.invitations.handle(EMAIL, accept, call.as('tutor', 'user-ada')))
      .thenAppended({
        appended: {
          [stream]: [{ type: 'TutorInvitationAccepted', data: { invitationId: INVITATION_ID, applicationId: 'application-1', at } }],
        },
      });
  });

  it('a revoked invitation refuses the sign-in', async () => {
    await spec
      .given({ [stream]: [invited(INVITATION_ID, ago(2 * DAY)), revoked(INVITATION_ID)] })
      .when((h, call) => h.invitations.handle(EMAIL, accept, call.as('tutor', 'user-ada')))
      .thenRefused(INVITATION_REVOKED, 'forbidden');
  });
});
