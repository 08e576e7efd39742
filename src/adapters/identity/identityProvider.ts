import { createHash, timingSafeEqual } from 'node:crypto';

export type SignInUserType = 'student' | 'tutor';

/** Where the dev provider's consent page lives (the stand-in for Google's). */
export const DEV_CONSENT_PATH = '/api/auth/dev/consent';

/** Who the provider says signed in, and the tokens it granted (null when it granted none). */
export interface ExternalIdentity {
  /** The provider's stable id for the person (Google's `sub`; `dev:` + e-mail for the dev provider). */
  subject: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
}

/**
 * The OAuth 2.0 authorization-code flow with PKCE, as the sign-in routes need it: where to send
 * the browser, and what a returned code proves. `google` talks to Google; `dev` is the built-in
 * stand-in used when no Google credentials are configured.
 */
/** The dev stand-in's consent page issues the codes Google would: only the dev provider has it. */
export interface DevConsent {
  issueCode(input: { email: string; firstName: string; lastName: string; codeChallenge: string }): Promise<string>;
}

export interface IdentityProvider {
  kind: 'google' | 'dev';
  devConsent?: DevConsent;
  authorizationUrl(request: { state: string; codeChallenge: string; userType: SignInUserType; redirectUri: string }): string;
  exchange(request: { code: string; codeVerifier: string; redirectUri: string }): Promise<ExternalIdentity>;
}

/** RFC 7636 S256: base64url(sha256(verifier)). */
export const pkceChallenge = (codeVerifier: string) => createHash('sha256').update(codeVerifier).digest('base64url');

export function pkceMatches(codeVerifier: string, codeChallenge: string): boolean {
  const expected = Buffer.from(pkceChallenge(codeVerifier));
  const given = Buffer.from(codeChallenge);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
