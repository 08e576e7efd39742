import type { FastifyReply } from 'fastify';
import { DEV_CONSENT_PATH, type SignInUserType } from '../../../adapters/identity/identityProvider.ts';

/**
 * The dev identity provider's consent page (googleAuthRoutes.ts serves it when no Google credentials
 * are configured): one self-contained HTML page and how it is sent.
 */

/** Where Google (or the dev consent page) returns. */
export const CALLBACK_PATH = '/api/auth/google/callback';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export interface ConsentForm {
  state: string;
  userType: SignInUserType;
  codeChallenge: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  error?: string;
}

/** The dev provider's "consent screen": one self-contained, accessible page. */
export function consentPage(form: ConsentForm): string {
  const e = escapeHtml;
  const who = form.userType === 'tutor' ? 'a tutor applicant' : 'a student';
  const cancel = `${CALLBACK_PATH}?${new URLSearchParams({ error: 'access_denied', state: form.state })}`;
  const invalid = form.error ? ' aria-invalid="true" aria-describedby="email-error"' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${form.error ? 'Error: ' : ''}Development sign-in - Topmark</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #0f172a; background: #f8fafc; }
  main { max-width: 28rem; margin: 3rem auto; padding: 2rem; background: #fff; border: 1px solid #cbd5e1; border-radius: 0.75rem; }
  h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
  p { margin: 0 0 1rem; color: #334155; }
  .field { margin-bottom: 1rem; }
  label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
  .optional { font-weight: 400; color: #475569; }
  input { box-sizing: border-box; width: 100%; padding: 0.625rem 0.75rem; font: inherit; color: inherit; border: 1px solid #64748b; border-radius: 0.5rem; }
  input[aria-invalid="true"] { border-color: #b91c1c; }
  .error { color: #b91c1c; font-weight: 600; margin: 0.25rem 0 0; }
  button { width: 100%; padding: 0.75rem; font: inherit; font-weight: 600; color: #fff; background: #1d4ed8; border: 0; border-radius: 0.5rem; cursor: pointer; }
  button:hover { background: #1e40af; }
  input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  a { color: #1d4ed8; }
  .cancel { margin: 1rem 0 0; text-align: center; }
</style>
</head>
<body>
<main>
<h1>Development sign-in</h1>
<p>No Google credentials are configured, so this local page stands in for Google. Any e-mail address you enter is treated as verified.</p>
<p>You are signing in as ${who}.</p>
<form method="post" action="${DEV_CONSENT_PATH}">
  <div class="field">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" required autocomplete="email" maxlength="254" value="${e(form.email ?? '')}"${invalid}>
    ${form.error ? `<p id="email-error" class="error" role="alert">${e(form.error)}</p>` : ''}
  </div>
  <div class="field">
    <label for="firstName">First name <span class="optional">(optional)</span></label>
    <input id="firstName" name="firstName" type="text" autocomplete="given-name" maxlength="100" value="${e(form.firstName ?? '')}">
  </div>
  <div class="field">
    <label for="lastName">Last name <span class="optional">(optional)</span></label>
    <input id="lastName" name="lastName" type="text" autocomplete="family-name" maxlength="100" value="${e(form.lastName ?? '')}">
  </div>
  <input type="hidden" name="state" value="${e(form.state)}">
  <input type="hidden" name="userType" value="${e(form.userType)}">
  <input type="hidden" name="code_challenge" value="${e(form.codeChallenge)}">
  <button type="submit">Continue</button>
</form>
<p class="cancel"><a href="${e(cancel)}">Cancel</a></p>
</main>
</body>
</html>`;
}

export function sendPage(reply: FastifyReply, status: number, html: string) {
  // Referrer-Policy same-origin, not no-referrer: under no-referrer the browser sends
  // `Origin: null` with the form's POST, which the cross-site write check refuses.
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'same-origin')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    )
    .send(html);
}
