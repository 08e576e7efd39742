import { createHash, randomInt } from 'node:crypto';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { PasswordHasher } from '../../adapters/passwords/passwordHasher.ts';
import type { PersonalDataVault } from '../../adapters/personalData/personalDataVault.ts';
import type { RateLimiter } from '../../adapters/rateLimit/rateLimiter.ts';
import type { SignInStore } from '../../adapters/signIns/signInStore.ts';
import { reservationDecider } from '../../domain/accounts/reservationDecider.ts';
import { studentStreamId } from '../../domain/accounts/student.ts';
import { studentDecider } from '../../domain/accounts/studentDecider.ts';
import { tutorApplicationStreamId } from '../../domain/accounts/tutorApplication.ts';
import { tutorApplicationDecider } from '../../domain/accounts/tutorApplicationDecider.ts';
import { userStreamId } from '../../domain/accounts/user.ts';
import { userDecider } from '../../domain/accounts/userDecider.ts';
import { contactStreamId } from '../../domain/contact/contact.ts';
import { contactDecider } from '../../domain/contact/contactDecider.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The command handlers of the accounts feature, one per aggregate. */
export function accountHandlers(store: EventStore) {
  return {
    users: commandHandler(store, userDecider, userStreamId),
    students: commandHandler(store, studentDecider, studentStreamId),
    reservations: commandHandler(store, reservationDecider, (id) => id),
    tutorApplications: commandHandler(store, tutorApplicationDecider, tutorApplicationStreamId),
    /** Deletion erases the person's contact messages too. */
    contacts: commandHandler(store, contactDecider, contactStreamId),
  };
}
export type AccountHandlers = ReturnType<typeof accountHandlers>;

export interface AccountDeps {
  handlers: AccountHandlers;
  store: EventStore;
  /** Read models (users, students) for look-ups by username or e-mail. */
  sql: Sql;
  hasher: PasswordHasher;
  signIns: SignInStore;
  rateLimiter: RateLimiter;
  vault: PersonalDataVault;
}

export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Codes are compared as hashes salted with the user id, so the log never holds a usable code hash table. */
export const codeHash = (userId: string, code: string) => createHash('sha256').update(`${userId}:${code}`).digest('hex');

/**
 * Reservation streams are named by a hash of the value, never the value. Usernames of accounts
 * and of secondary (view-only) logins share the `username` namespace.
 */
export const reservationStreamId = (kind: 'username' | 'email', value: string) =>
  `${kind}Reservation-${createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 40)}`;
