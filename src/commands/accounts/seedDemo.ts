import { randomBytes } from 'node:crypto';
import type { Clock } from '../../adapters/clock/clock.ts';
import { CURRENT_TERMS_VERSION } from '../../domain/accounts/accountForms.ts';
import type { AccountRole } from '../../domain/accounts/user.ts';
import { type CommandContext, commandContext, deterministicUuid } from '../kit/commandContext.ts';
import type { AccountDeps } from './accountDeps.ts';
import { type NewAccount, registerAccount } from './registerUser.ts';

export interface StaffAccount {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  role: Extract<AccountRole, 'admin' | 'finance'>;
}

/**
 * Staff accounts are created by an operator (`npm run ops -- admin:create`), verified and with terms
 * accepted, at the clock's time.
 */
export function createStaffAccount(deps: AccountDeps, clock: Clock, staff: StaffAccount, commandId?: string) {
  return registerAccount(
    deps,
    {
      ...staff,
      phone: null,
      authProvider: 'local',
      googleId: null,
      emailVerified: true,
      termsAccepted: { version: CURRENT_TERMS_VERSION, ip: null },
    },
    commandContext({ commandId, actorRole: 'operator', now: clock.now() }),
  );
}

export interface DemoCredential {
  role: string;
  username: string;
  password: string;
}

const demoPassword = () => randomBytes(9).toString('base64url');

/**
 * A fresh embedded install gets one account per kind of person, so a newcomer can look around.
 * Command ids are fixed, so seeding twice creates nothing twice. Each command decides at the clock's time.
 */
export async function seedDemoAccounts(deps: AccountDeps, clock: Clock): Promise<DemoCredential[]> {
  const credentials: DemoCredential[] = [];
  const seed = async (
    key: string,
    account: Omit<NewAccount, 'password' | 'authProvider' | 'googleId' | 'emailVerified' | 'termsAccepted'>,
  ) => {
    const password = demoPassword();
    const result = await registerAccount(
      deps,
      {
        ...account,
        password,
        authProvider: 'local',
        googleId: null,
        emailVerified: true,
        termsAccepted: { version: CURRENT_TERMS_VERSION, ip: null },
      },
      commandContext({ commandId: deterministicUuid(`demo-seed/${key}`), actorRole: 'system', now: clock.now() }),
    );
    credentials.push({ role: account.role, username: account.username, password });
    return result;
  };
  await seed('admin', {
    username: 'demo.admin',
    email: 'admin@demo.topmark.example',
    role: 'admin',
    firstName: 'Avery',
    lastName: 'Admin',
    phone: null,
  });
  const parent = await seed('parent', {
    username: 'demo.parent',
    email: 'parent@demo.topmark.example',
    role: 'parent',
    firstName: 'Pat',
    lastName: 'Parent',
    phone: null,
  });
  await seed('student', {
    username: 'demo.student',
    email: 'student@demo.topmark.example',
    role: 'student',
    firstName: 'Sam',
    lastName: 'Student',
    phone: null,
    parentId: parent.userId,
    student: { grade: 'Grade 11', isUniversityStudent: false },
  });
  return credentials;
}

/**
 * Accounts as the demo tutors' seed needs them (`src/commands/tutors/seedDemoTutors.ts`, which
 * may not import this feature): register an approved tutor's Google account, set its time zone.
 */
export function demoTutorAccounts(deps: AccountDeps) {
  return {
    // A demo tutor stands for one who accepted the terms at the tutor sign-in when applying, as
    // every real tutor has: never asked for the Student/Parent Agreement on first sign-in.
    register: (account: NewAccount, ctx: CommandContext) =>
      registerAccount(deps, { ...account, termsAccepted: account.termsAccepted ?? { version: CURRENT_TERMS_VERSION, ip: null } }, ctx),
    setTimezone: (userId: string, timezone: string, ctx: CommandContext) =>
      deps.handlers.users.handle(userId, { type: 'ChangeTimezone', data: { userId, timezone } }, ctx),
  };
}
