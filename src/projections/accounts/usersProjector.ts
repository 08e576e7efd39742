import { defineProjection, type ProjectedEvent } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { type UserRow, users } from './tables.ts';

const handles = [
  'UserRegistered',
  'EmailVerified',
  'PasswordReset',
  'TermsAccepted',
  'RoleChanged',
  'TimezoneChanged',
  'NameChanged',
  'GoogleAccountLinked',
  'SignedIn',
  'AccountDeleted',
  'UserDeactivated',
  'UserReactivated',
] as const;
type UserEvent = ProjectedEvent<(typeof handles)[number]>;

function applyUserEvent(row: UserRow | null, event: UserEvent): UserRow | null {
  if (event.type === 'UserRegistered') {
    const d = event.data;
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
      timezone_chosen: false,
      terms_accepted_at: d.termsAcceptedAt,
      terms_accepted_ip: d.termsAcceptedIp,
      terms_accepted_version: d.termsAcceptedVersion,
      parent_id: d.parentId,
      created_at: d.registeredAt,
      last_sign_in_at: null,
      deactivated_at: null,
      deactivation_reason: null,
    };
  }
  if (!row) return null;
  switch (event.type) {
    case 'EmailVerified':
    case 'PasswordReset':
      return { ...row, email_verified: true };
    case 'TermsAccepted':
      return { ...row, terms_accepted_at: event.data.at, terms_accepted_ip: event.data.ip, terms_accepted_version: event.data.version };
    case 'RoleChanged':
      return { ...row, role: event.data.to };
    case 'TimezoneChanged':
      return { ...row, timezone: event.data.timezone, timezone_chosen: event.data.chosen === true };
    case 'NameChanged':
      return { ...row, first_name: event.data.firstName, last_name: event.data.lastName };
    case 'GoogleAccountLinked':
      return { ...row, google_id: event.data.googleId, google_token_expiry: event.data.tokenExpiry };
    case 'SignedIn':
      return { ...row, last_sign_in_at: event.data.at };
    case 'AccountDeleted':
      return null;
    case 'UserDeactivated':
      return { ...row, deactivated_at: event.data.at, deactivation_reason: event.data.reason };
    case 'UserReactivated':
      return { ...row, deactivated_at: null, deactivation_reason: null };
  }
}

/** The users table: who can sign in, with what role, and their profile. */
export const usersProjector = defineProjection({
  name: 'users',
  handles,
  tables: [users],
  apply: (tx, events) => foldRows(tx, users, events, { keyOf: (e) => e.data.userId, apply: applyUserEvent }),
});
