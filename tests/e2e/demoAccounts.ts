import { readFileSync } from 'node:fs';

/** Where tests/e2e/serve.ts writes the demo accounts it seeded (passwords are generated). */
export const DEMO_ACCOUNTS_FILE = '.tmp/e2e-demo-accounts.json';

export interface DemoAccount {
  role: string;
  username: string;
  password: string;
}

/** The seeded demo account of `role` (demo.parent, demo.student, demo.admin). */
export function demoAccount(role: 'admin' | 'parent' | 'student'): DemoAccount {
  const accounts = JSON.parse(readFileSync(DEMO_ACCOUNTS_FILE, 'utf8')) as DemoAccount[];
  const account = accounts.find((a) => a.role === role);
  if (!account) throw new Error(`no demo ${role} in ${DEMO_ACCOUNTS_FILE}`);
  return account;
}
