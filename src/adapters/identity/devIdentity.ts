import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../db/db.ts';
import {
  DEV_CONSENT_PATH,
  type DevConsent,
  type ExternalIdentity,
  type IdentityProvider,
  pkceMatches,
  type SignInUserType,
} from './identityProvider.ts';

export { DEV_CONSENT_PATH } from './identityProvider.ts';
export const DEV_CODE_TTL_MINUTES = 10;

const digest = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * The identity provider used when no Google credentials are configured (development, tests,
 * demos): the "consent screen" is a local form where any e-mail address can be entered, and it
 * returns through the same callback, state check and PKCE exchange as Google. Codes are single
 * use, last ten minutes and are stored as hashes. Never offered in production (the routes refuse).
 */
/** The Google subject the dev provider gives an address: demo accounts seeded with it sign in through the consent page. */
export const devSubjectOf = (email: string) => `dev:${email}`;

export class DevIdentityProvider implements IdentityProvider {
  readonly kind = 'dev' as const;
  readonly devConsent: DevConsent = { issueCode: (input) => this.issueCode(input) };

  constructor(private readonly sql: Sql) {}

  authorizationUrl(request: { state: string; codeChallenge: string; userType: SignInUserType; redirectUri: string }): string {
    const query = new URLSearchParams({ state: request.state, userType: request.userType, code_challenge: request.codeChallenge });
    return `${DEV_CONSENT_PATH}?${query}`;
  }

  /** What the consent form's submission does: a one-time code bound to the PKCE challenge. */
  async issueCode(input: { email: string; firstName: string; lastName: string; codeChallenge: string }): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await this.sql`DELETE FROM dev_identity_codes WHERE created_at < now() - make_interval(mins => ${DEV_CODE_TTL_MINUTES})`;
    await this.sql`
      INSERT INTO dev_identity_codes (code, email, first_name, last_name, code_challenge)
      VALUES (${digest(code)}, ${input.email.trim().toLowerCase()}, ${input.firstName.trim()}, ${input.lastName.trim()}, ${input.codeChallenge})`;
    return code;
  }

  async exchange(request: { code: string; codeVerifier: string; redirectUri: string }): Promise<ExternalIdentity> {
    // Deleting while reading makes the code single use, even for two concurrent exchanges.
    const [row] = await this.sql<{ email: string; first_name: string; last_name: string; code_challenge: string; fresh: boolean }[]>`
      DELETE FROM dev_identity_codes WHERE code = ${digest(request.code)}
      RETURNING email, first_name, last_name, code_challenge,
                created_at > now() - make_interval(mins => ${DEV_CODE_TTL_MINUTES}) AS fresh`;
    if (!row) throw new Error('Unknown or already used sign-in code');
    if (!row.fresh) throw new Error('Expired sign-in code');
    if (!pkceMatches(request.codeVerifier, row.code_challenge)) throw new Error('PKCE verifier does not match');
    return {
      subject: devSubjectOf(row.email),
      email: row.email,
      emailVerified: true,
      firstName: row.first_name,
      lastName: row.last_name,
      accessToken: null,
      refreshToken: null,
      expiresAt: null,
    };
  }
}
