import type { UserEvent } from '../../src/domain/accounts/user.ts';

type Registered = Extract<UserEvent, { type: 'UserRegistered' }>;

/** A registered, unverified student with a password, for decider and workflow specs. */
export function userRegistered(userId: string, at: string, overrides: Partial<Registered['data']> = {}): Registered {
  return {
    type: 'UserRegistered',
    data: {
      userId,
      username: 'ann',
      email: 'ann@example.com',
      passwordHash: 'h',
      role: 'student',
      firstName: 'Ann',
      lastName: 'Lee',
      phone: null,
      authProvider: 'local',
      googleId: null,
      timezone: 'America/New_York',
      emailVerified: false,
      termsAcceptedAt: at,
      termsAcceptedIp: null,
      termsAcceptedVersion: '1.0',
      parentId: null,
      registeredAt: at,
      ...overrides,
    },
  };
}
