import { z } from 'zod';
import { accountRoles } from './user.ts';
import { STATUS_REASON_MAX, STATUS_REASON_REQUIRED, STATUS_REASON_TOO_LONG } from './userDecider.ts';

/** The console's Users tab (issue 12 §2): the list's query and rows, and the status change bodies. */

export const userStatuses = ['active', 'deactivated'] as const;
export type UserStatus = (typeof userStatuses)[number];
export const adminUserSortColumns = ['name', 'username', 'email', 'role', 'status', 'createdAt', 'lastSignInAt'] as const;
export const ADMIN_USERS_PAGE_SIZE_MAX = 100;
export const ADMIN_SEARCH_MAX = 200;

/** GET /api/admin/users: search (name, username, e-mail), filters, sort and paging, all done by the server. */
export const adminUserListQuerySchema = z.object({
  search: z.string().trim().max(ADMIN_SEARCH_MAX).optional(),
  role: z.enum(accountRoles).optional(),
  status: z.enum(userStatuses).optional(),
  sort: z.enum(adminUserSortColumns).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_USERS_PAGE_SIZE_MAX).default(25),
});
export type AdminUserListQuery = z.input<typeof adminUserListQuerySchema>;
export type AdminUserListFilter = z.output<typeof adminUserListQuerySchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.string(),
  status: z.enum(userStatuses),
  emailVerified: z.boolean(),
  authProvider: z.string(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  deactivatedAt: z.string().nullable(),
  deactivationReason: z.string().nullable(),
});
export type AdminUser = z.output<typeof adminUserSchema>;

export const adminUserPageSchema = z.object({ rows: z.array(adminUserSchema), total: z.number().int() });
export type AdminUserPage = z.output<typeof adminUserPageSchema>;

/**
 * POST /api/admin/users/{id}/deactivate and /reactivate. The decider trims the reason and says
 * what is wrong with it (empty, over 500); the schema only keeps megabytes out.
 */
export const userStatusBodySchema = z.object({
  reason: z.string({ error: STATUS_REASON_REQUIRED }).max(STATUS_REASON_MAX * 2, STATUS_REASON_TOO_LONG),
});
