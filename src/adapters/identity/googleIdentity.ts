import { auth } from '@googleapis/calendar';
import type { ExternalIdentity, IdentityProvider, SignInUserType } from './identityProvider.ts';

type OAuth2Client = InstanceType<typeof auth.OAuth2>;
type AuthUrlOptions = NonNullable<Parameters<OAuth2Client['generateAuthUrl']>[0]>;

export const SIGN_IN_SCOPES = ['openid', 'email', 'profile'];
/** Tutors' sessions are put in their calendar (spec part 1 §1, §2: the calendar-access notice). */
export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar';

export interface GoogleIdentityOptions {
  clientId: string;
  clientSecret: string;
  /** Replaces Google's endpoints (tests: a local server speaking Google's wire format). */
  endpoints?: {
    /** Where the browser is sent to consent (default https://accounts.google.com/o/oauth2/v2/auth). */
    authUrl?: string;
    /** Where codes are exchanged (default https://oauth2.googleapis.com/token). */
    tokenUrl?: string;
    /** The id-token signing keys as `{ kid: PEM }` (default https://www.googleapis.com/oauth2/v1/certs). */
    certsUrl?: string;
  };
  /** Accepted id-token issuers (default Google's). */
  issuers?: string[];
}

/**
 * Google sign-in on the authorization-code flow with PKCE (S256). The id token returned with the
 * code is verified (signature against Google's published keys, audience, issuer, expiry) before
 * anything in it is believed. Tutors also grant calendar access, offline, with a fresh consent so
 * Google returns a refresh token every time.
 */
export class GoogleIdentityProvider implements IdentityProvider {
  readonly kind = 'google' as const;
  private readonly client: OAuth2Client;

  constructor(private readonly options: GoogleIdentityOptions) {
    const e = options.endpoints ?? {};
    this.client = new auth.OAuth2({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      endpoints: {
        ...(e.authUrl ? { oauth2AuthBaseUrl: e.authUrl } : {}),
        ...(e.tokenUrl ? { oauth2TokenUrl: e.tokenUrl } : {}),
        ...(e.certsUrl ? { oauth2FederatedSignonPemCertsUrl: e.certsUrl } : {}),
      },
      ...(options.issuers ? { issuers: options.issuers } : {}),
    });
  }

  authorizationUrl(request: { state: string; codeChallenge: string; userType: SignInUserType; redirectUri: string }): string {
    const tutor = request.userType === 'tutor';
    const options: AuthUrlOptions = {
      response_type: 'code',
      redirect_uri: request.redirectUri,
      scope: tutor ? [...SIGN_IN_SCOPES, CALENDAR_SCOPE] : SIGN_IN_SCOPES,
      state: request.state,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256' as AuthUrlOptions['code_challenge_method'],
      // Spec part 1 §7: tutor flows pass prompt=consent and access_type=offline (a refresh token for the calendar).
      ...(tutor ? { access_type: 'offline', prompt: 'consent' } : {}),
    };
    return this.client.generateAuthUrl(options);
  }

  async exchange(request: { code: string; codeVerifier: string; redirectUri: string }): Promise<ExternalIdentity> {
    const { tokens } = await this.client.getToken({
      code: request.code,
      codeVerifier: request.codeVerifier,
      redirect_uri: request.redirectUri,
    });
    if (!tokens.id_token) throw new Error('Google returned no id token');
    const ticket = await this.client.verifyIdToken({ idToken: tokens.id_token, audience: this.options.clientId });
    const claims = ticket.getPayload();
    if (!claims?.sub || !claims.email) throw new Error('The Google id token has no subject or e-mail');
    return {
      subject: claims.sub,
      email: claims.email.trim().toLowerCase(),
      // Older tokens carry the flag as a string.
      emailVerified: claims.email_verified === true || (claims.email_verified as unknown) === 'true',
      firstName: claims.given_name?.trim() ?? '',
      lastName: claims.family_name?.trim() ?? '',
      accessToken: tokens.access_token ?? null,
      refreshToken: tokens.refresh_token ?? null,
      expiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
    };
  }
}
