import { isIP } from 'node:net';
import { z } from 'zod';

/** A limit: at most `limit` events per fixed window of `windowSeconds`. */
export interface LimitRule {
  limit: number;
  windowSeconds: number;
}

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** `N/window`, e.g. `5/15m`, `20/1h`, `100/1d`: at most N per window. */
const limitSetting = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx): LimitRule => {
      const match = /^\s*(\d+)\s*\/\s*(\d+)\s*([smhd])\s*$/.exec(text);
      const limit = Number(match?.[1]);
      const windowSeconds = Number(match?.[2]) * UNIT_SECONDS[(match?.[3] ?? 's') as keyof typeof UNIT_SECONDS];
      if (!match || limit < 1 || windowSeconds < 1) {
        ctx.addIssue({ code: 'custom', message: `expected N/window such as 5/15m or 20/1h (s, m, h, d), got "${text}"` });
        return z.NEVER;
      }
      return { limit, windowSeconds };
    });

/** Proxy names proxy-addr understands besides addresses and CIDR ranges. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
const isProxyAddress = (entry: string) => {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
};

/**
 * Which peers may tell us the client's address (X-Forwarded-For) and protocol: Fastify's
 * `trustProxy`. Unset or `false`: none (the socket's peer is the client). `true`: any (only behind
 * a proxy that overwrites the header). A number: that many hops. Otherwise a comma-separated list
 * of addresses, CIDR ranges or `loopback` / `linklocal` / `uniquelocal`.
 */
const trustProxySetting = z
  .string()
  .optional()
  .transform((text, ctx): boolean | number | string[] => {
    const value = text?.trim().toLowerCase();
    if (value === undefined || value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (bad.length > 0 || entries.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `expected false, true, a hop count, or addresses/CIDR ranges separated by commas; not understood: ${bad.join(', ') || value}`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** Every setting comes from the environment (README lists them); secrets never from files in the repo. */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  /**
   * Connections each process may open to PostgreSQL for its own work (pg-boss keeps 4 more).
   * Every process of a deployment counts against the server's max_connections (100 by default):
   * api × n + projector × n + worker × n, each this plus 4, must stay under it.
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(200).default(20),
  DATA_DIR: z.string().default('.data'),
  EVENTSTORE_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Topmark <no-reply@topmark.example>'),
  SUPPORT_EMAIL: z.string().default('support@topmark.ca'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UI_DIR: z.string().default('dist/ui'),
  /**
   * Signs short-lived cookies (the Google sign-in state), which any API process may have to read.
   * Unset: a secret made once and kept in the database (`instance_secrets`), so every process on
   * it signs alike; set it in production to keep it out of the database and its backups.
   */
  COOKIE_SECRET: z.string().min(32).optional(),
  /** Google OAuth client; without both, sign-in with Google uses the built-in dev identity provider (never in production). */
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** The service account tutors share their calendar with (spec part 2 §2, the calendar banner). */
  GOOGLE_SERVICE_ACCOUNT_EMAIL: z.string().optional(),
  /** Its private key: the PEM (line breaks may be written \n) or the whole JSON key file. */
  GOOGLE_SERVICE_ACCOUNT_KEY: z.string().optional(),
  /** Stripe: with a secret key payments go through Stripe; without one, the sandbox provider in PostgreSQL (refused in production). */
  STRIPE_SECRET_KEY: z.string().optional(),
  /** Given to the browser for Stripe Elements. */
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  /** The webhook endpoint's signing secret (`whsec_…`); without it every Stripe webhook is refused. */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /**
   * Lets a monitor read `/api/health`'s details (projections, lag, queues, the log's head) with
   * `Authorization: Bearer <HEALTH_TOKEN>`; admins read them with their session. Anonymous callers
   * get the status only. Unset: only admins see details.
   */
  HEALTH_TOKEN: z.string().min(32).optional(),
  /** The site's public origin (Google's redirect URI is PUBLIC_URL/api/auth/google/callback); default http://127.0.0.1:PORT. */
  PUBLIC_URL: z.url().optional(),
  /** docs/accounts.md, "Limits, proxies and headers": who may set X-Forwarded-For. Default: nobody. */
  TRUST_PROXY: trustProxySetting,
  /** `off` turns the per-address limits off (never the per-account sign-in and code limits). */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** Failed sign-ins per account (whichever login names it); always on. */
  SIGN_IN_ACCOUNT_LIMIT: limitSetting('5/15m'),
  /** Failed sign-ins per client address, across accounts. */
  SIGN_IN_IP_LIMIT: limitSetting('20/15m'),
  /** Registrations per client address. */
  REGISTER_IP_LIMIT: limitSetting('20/1h'),
  /** Contact messages per client address. */
  CONTACT_IP_LIMIT: limitSetting('10/1h'),
  /** Verification-code resends per client address (each account also waits a minute between codes). */
  RESEND_VERIFICATION_IP_LIMIT: limitSetting('10/15m'),
  /** Password-reset requests per client address (each account also waits a minute between codes). */
  PASSWORD_RESET_IP_LIMIT: limitSetting('10/15m'),
  /** Promo code checks (POST /api/promo-codes/validate) per signed-in account; always on. */
  PROMO_CHECK_ACCOUNT_LIMIT: limitSetting('30/1m'),
  /** Promo code checks per client address, across accounts. */
  PROMO_CHECK_IP_LIMIT: limitSetting('60/1m'),
  /** Unknown promo codes one account may try in a window before an alert is raised (once per window). */
  PROMO_GUESS_ALERT: limitSetting('20/1h'),
});

export type Config = Omit<z.infer<typeof schema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return { ...parsed.data, PUBLIC_URL: parsed.data.PUBLIC_URL ?? `http://127.0.0.1:${parsed.data.PORT}` };
}
