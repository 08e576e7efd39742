import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** Every setting comes from the environment (README lists them); secrets never from files in the repo. */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  EVENTSTORE_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Topmark <no-reply@topmark.example>'),
  SUPPORT_EMAIL: z.string().default('support@topmark.ca'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UI_DIR: z.string().default('dist/ui'),
  /** Signs short-lived cookies (the Google sign-in state). Unset: random per process, so set it when several API processes share traffic. */
  COOKIE_SECRET: z
    .string()
    .min(32)
    .default(() => randomBytes(32).toString('base64url')),
  /** Google OAuth client; without both, sign-in with Google uses the built-in dev identity provider (never in production). */
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** The site's public origin (Google's redirect URI is PUBLIC_URL/api/auth/google/callback); default http://127.0.0.1:PORT. */
  PUBLIC_URL: z.url().optional(),
});

export type Config = Omit<z.infer<typeof schema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return { ...parsed.data, PUBLIC_URL: parsed.data.PUBLIC_URL ?? `http://127.0.0.1:${parsed.data.PORT}` };
}
