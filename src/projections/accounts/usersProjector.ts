import type { z } from 'zod';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type {
  googleAccountLinked,
  roleChanged,
  termsAccepted,
  timezoneChanged,
  userRegistered,
} from '../../domain/accounts/accountEvents.ts';
import type { Projector } from '../runner/projector.ts';
import { foldRows } from '../runner/rowFold.ts';

export interface UserRow {
  id: string;
  username: string;
  email: string;
  role: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  email_verified: boolean;
  auth_provider: string;
  google_id: string | null;
  google_token_expiry: string | null;
  timezone: string;
  terms_accepted_at: string | null;
  terms_accepted_ip: string | null;
  terms_accepted_version: string | null;
  parent_id: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

const columns = [
  'id',
  'username',
  'email',
  'role',
  'first_name',
  'last_name',
  'phone',
  'email_verified',
  'auth_provider',
  'google_id',
  'google_token_expiry',
  'timezone',
  'terms_accepted_at',
  'terms_accepted_ip',
  'terms_accepted_version',
  'parent_id',
  'created_at',
  'last_sign_in_at',
] as const;
const types = [
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'boolean',
  'text',
  'text',
  'timestamptz',
  'text',
  'timestamptz',
  'text',
  'text',
  'text',
  'timestamptz',
  'timestamptz',
];

function applyUserEvent(row: UserRow | null, event: RecordedEvent): UserRow | null {
  const at = (event.data as { at?: string }).at ?? event.recordedAt.toISOString();
  if (event.type === 'UserRegistered') {
    const d = event.data as z.infer<typeof userRegistered>;
    return {
      id: d.userId,
      username: d.username,
      email: d.email,
      role: d.role,
      first_name: d.firstName,
      last_name: d.lastName,
      phone: d.phone,
      email_verified: d.emailVerified,
      auth_provider: d.authProvider,
      google_id: d.googleId,
      google_token_expiry: null,
      timezone: d.timezone,
      terms_accepted_at: d.termsAcceptedAt,
      terms_accepted_ip: d.termsAcceptedIp,
      terms_accepted_version: d.termsAcceptedVersion,
      parent_id: d.parentId,
      created_at: d.registeredAt,
      last_sign_in_at: null,
    };
  }
  if (!row) return null;
  switch (event.type) {
    case 'EmailVerified':
    case 'PasswordReset':
      return { ...row, email_verified: true };
    case 'TermsAccepted': {
      const d = event.data as z.infer<typeof termsAccepted>;
      return { ...row, terms_accepted_at: d.at, terms_accepted_ip: d.ip, terms_accepted_version: d.version };
    }
    case 'RoleChanged':
      return { ...row, role: (event.data as z.infer<typeof roleChanged>).to };
    case 'TimezoneChanged':
      return { ...row, timezone: (event.data as z.infer<typeof timezoneChanged>).timezone };
    case 'GoogleAccountLinked': {
      const d = event.data as z.infer<typeof googleAccountLinked>;
      return { ...row, google_id: d.googleId, google_token_expiry: d.tokenExpiry };
    }
    case 'SignedIn':
      return { ...row, last_sign_in_at: at };
    case 'AccountDeleted':
      return null;
    default:
      return row;
  }
}

/** The spec's users table: who can sign in, with what role, and their profile. */
export const usersProjector: Projector = {
  name: 'users',
  handles: [
    'UserRegistered',
    'EmailVerified',
    'PasswordReset',
    'TermsAccepted',
    'RoleChanged',
    'TimezoneChanged',
    'GoogleAccountLinked',
    'SignedIn',
    'AccountDeleted',
  ],
  tables: ['users'],
  async setup(tx) {
    await tx.unsafe(`
      CREATE TABLE IF NOT EXISTS users (
        id                     text PRIMARY KEY,
        username               text NOT NULL,
        email                  text NOT NULL,
        role                   text NOT NULL DEFAULT 'student',
        first_name             text NOT NULL,
        last_name              text NOT NULL,
        phone                  text,
        email_verified         boolean NOT NULL DEFAULT false,
        auth_provider          text NOT NULL DEFAULT 'local',
        google_id              text,
        google_token_expiry    timestamptz,
        timezone               text NOT NULL DEFAULT 'America/New_York',
        terms_accepted_at      timestamptz,
        terms_accepted_ip      text,
        terms_accepted_version text,
        parent_id              text,
        created_at             timestamptz NOT NULL,
        last_sign_in_at        timestamptz
      );`);
  },
  async indexes(tx) {
    await tx.unsafe(`
      CREATE UNIQUE INDEX IF NOT EXISTS users_username ON users (lower(username));
      CREATE UNIQUE INDEX IF NOT EXISTS users_email ON users (lower(email));
      CREATE INDEX IF NOT EXISTS users_role ON users (role);
      CREATE INDEX IF NOT EXISTS users_google_id ON users (google_id) WHERE google_id IS NOT NULL;`);
  },
  apply: (tx, events) =>
    foldRows<UserRow>(tx, events, {
      table: 'users',
      columns,
      types,
      keyOf: (e) => (e.data as { userId: string }).userId,
      apply: applyUserEvent,
    }),
};
