import { randomBytes } from 'node:crypto';
import { createStaffAccount } from '../../src/commands/accounts/seedDemo.ts';
import { waitForProjections } from '../../src/projections/runner/projectionRunner.ts';
import type { System } from '../../src/system.ts';
import { type CommandResult, UsageError } from './output.ts';

export interface AdminOptions {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password?: string;
  role: string;
}

/** Creates a staff account through the same commands as every other account. */
export async function createAdmin(system: System, options: AdminOptions): Promise<CommandResult> {
  if (options.role !== 'admin' && options.role !== 'finance') throw new UsageError('--role must be admin or finance');
  const generated = !options.password;
  const password = options.password ?? randomBytes(12).toString('base64url');
  if (password.length < 6) throw new UsageError('The password must be at least 6 characters long');
  const { userId, position } = await createStaffAccount(system.accounts, system.clock, {
    username: options.username,
    email: options.email,
    firstName: options.firstName,
    lastName: options.lastName,
    password,
    role: options.role,
  });
  // No projector may be running (npm start down): bring the account read models up to date here.
  if (!(await waitForProjections(system.sql, ['users', 'students'], position, 500)))
    await system.projections.catchUp(['users', 'students']);
  const data = { userId, username: options.username, role: options.role, ...(generated ? { password } : {}) };
  return {
    data,
    text: () =>
      [
        `Created ${options.role} ${options.username} (${userId}).`,
        generated ? `Generated password: ${password}` : 'Password: as given.',
        'Sign in at /admin-login.',
      ].join('\n'),
  };
}
