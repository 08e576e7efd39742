import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../adapters/config/config.ts';

/**
 * The built UI (Vite, dist/ui) loads only its own hashed scripts and stylesheets: no inline
 * script, no eval. Styles allow 'unsafe-inline' because the UI's libraries insert <style>
 * elements at run time (Radix's scroll lock); scripts never do. Swagger UI (/api/docs) runs
 * under the same policy (its validator badge, an outside image, is turned off).
 */
export const APP_CSP = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // blob: shows a chosen profile picture before its upload ends (only this page's own blobs).
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * With Stripe configured, checkout mounts Stripe's Payment Element: Stripe.js from js.stripe.com,
 * its iframes (the card fields, 3-D Secure) and its API. Nothing of Stripe's is allowed otherwise.
 */
export const STRIPE_CSP = {
  scriptSrc: ['https://js.stripe.com'],
  frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com'],
  connectSrc: ['https://api.stripe.com'],
  imgSrc: ['https://*.stripe.com'],
};

/** The policy for this deployment: the app's, with Stripe's origins added when Stripe takes payments. */
export function cspFor(config: Pick<Config, 'STRIPE_SECRET_KEY'>): Record<string, string[]> {
  if (!config.STRIPE_SECRET_KEY) return APP_CSP;
  return {
    ...APP_CSP,
    scriptSrc: [...APP_CSP.scriptSrc, ...STRIPE_CSP.scriptSrc],
    frameSrc: STRIPE_CSP.frameSrc,
    connectSrc: [...APP_CSP.connectSrc, ...STRIPE_CSP.connectSrc],
    imgSrc: [...APP_CSP.imgSrc, ...STRIPE_CSP.imgSrc],
  };
}

export const CROSS_SITE_REFUSED = 'Requests from other sites are not allowed';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Whether the server listens on this host only for the machine itself. */
export const isLoopbackHost = (host: string): boolean => LOOPBACK_HOSTS.test(host) || host === '::1' || host === '::ffff:127.0.0.1';

/** A `Host` header naming the machine itself (`localhost`, `127.0.0.1`, `[::1]`, with or without a port). */
export function loopbackHostHeader(header: string | undefined): boolean {
  if (!header) return false;
  const name = /^(\[[^\]]*\]|[^:]*)(?::\d{1,5})?$/.exec(header.trim())?.[1];
  return name !== undefined && isLoopbackHost(name);
}

/**
 * Security headers (helmet): the CSP above, no framing (`frame-ancestors 'none'`,
 * X-Frame-Options DENY), nosniff, a referrer policy that still sends our own origin on our own
 * requests (which the Origin check needs), and HSTS in production only.
 */
export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const production = config.NODE_ENV === 'production';
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...cspFor(config), ...(production ? { upgradeInsecureRequests: [] } : {}) },
    },
    strictTransportSecurity: production ? { maxAge: 365 * 86_400, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    xContentTypeOptions: true,
  });
}

/**
 * Cross-site writes: a state-changing request whose `Origin` is not the site's own (PUBLIC_URL's
 * origin, or the origin of the Host it was sent to) is refused with 403 before its body is read.
 * A request without `Origin` (curl, other servers, the tests) passes: browsers always send it on
 * cross-site writes. Outside production a loopback origin is also the site's own (the Vite dev
 * server on another port proxies /api here).
 */
export function installOriginCheck(app: FastifyInstance, config: Config): void {
  const publicOrigin = new URL(config.PUBLIC_URL).origin.toLowerCase();
  const production = config.NODE_ENV === 'production';
  const sameSite = (origin: string, request: FastifyRequest): boolean => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // `null` (sandboxed frames, opaque origins) or garbage
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (url.origin.toLowerCase() === publicOrigin) return true;
    if (request.host && url.host.toLowerCase() === request.host.toLowerCase()) return true;
    return !production && isLoopbackHost(url.hostname);
  };
  app.addHook('onRequest', async (request, reply) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined || sameSite(origin, request)) return;
    return reply.status(403).send({ message: CROSS_SITE_REFUSED });
  });
}
