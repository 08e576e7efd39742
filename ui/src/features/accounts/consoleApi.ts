import { devMailboxResponseSchema } from '@shared/accounts/accountApi.ts';
import { type AdminUserListQuery, adminUserPageSchema, adminUserSchema } from '@shared/accounts/adminUserApi.ts';
import { api, jsonQuery } from '../../app/api.ts';

const query = (params: Record<string, unknown>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  return search;
};

/** The Users tab's calls (issue 12 §2). Keys start with the path, so the tutor approvals' refresh reaches them too. */
export const usersConsoleApi = {
  allKey: ['/api/admin/users'] as const,
  listKey: (q: AdminUserListQuery) => ['/api/admin/users', 'list', q] as const,
  list: (q: AdminUserListQuery) => jsonQuery(`/api/admin/users?${query(q)}`, adminUserPageSchema),
  setStatus: (userId: string, action: 'deactivate' | 'reactivate', reason: string) =>
    api.send('POST', `/api/admin/users/${encodeURIComponent(userId)}/${action}`, { reason }, adminUserSchema),
};

export const listQueryParams = query;

/** The console's Mailbox tab (issue 12 §9): the dev outbox, the same mail the /dev/mailbox page lists. */
export const mailboxConsoleApi = {
  mailboxKey: ['/api/admin/mailbox'] as const,
  mailbox: jsonQuery('/api/admin/mailbox', devMailboxResponseSchema),
};
