import type { Sql } from '../../adapters/db/db.ts';
import type { AdminUser, AdminUserListFilter, AdminUserPage } from '../../domain/accounts/adminUserApi.ts';
import type { ReadRowOf } from '../kit/table.ts';
import type { users } from './tables.ts';

type UserRead = ReadRowOf<typeof users>;

/** Sort keys of the console's Users tab → columns (ids break ties, so pages never overlap). */
const ORDER_BY: Record<AdminUserListFilter['sort'], string> = {
  name: 'lower(last_name) %s, lower(first_name) %s',
  username: 'lower(username) %s',
  email: 'lower(email) %s',
  role: 'role %s',
  status: '(deactivated_at IS NOT NULL) %s',
  createdAt: 'created_at %s',
  lastSignInAt: 'last_sign_in_at %s NULLS LAST',
};

/** `%`, `_` and `\` typed into the search box are searched for as themselves. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function adminUserOf(row: UserRead): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    status: row.deactivated_at ? 'deactivated' : 'active',
    emailVerified: row.email_verified,
    authProvider: row.auth_provider,
    createdAt: iso(row.created_at) as string,
    lastSignInAt: iso(row.last_sign_in_at),
    deactivatedAt: iso(row.deactivated_at),
    deactivationReason: row.deactivation_reason,
  };
}

/**
 * One page of accounts for the console (issue 12 §2): every word of the search must appear in the
 * name, username or e-mail (ignoring case), filtered by role and status, sorted and paged here.
 */
export async function listUsersForAdmin(sql: Sql, query: AdminUserListFilter): Promise<AdminUserPage> {
  const words = (query.search ?? '').split(/\s+/).filter(Boolean);
  const haystack = sql`(first_name || ' ' || last_name || ' ' || username || ' ' || email)`;
  const matches = words.map((w) => sql`AND ${haystack} ILIKE ${likePattern(w)}`);
  const status = query.status ?? null;
  const where = sql`WHERE (${query.role ?? null}::text IS NULL OR role = ${query.role ?? null})
    AND (${status}::text IS NULL OR (deactivated_at IS NOT NULL) = (${status}::text = 'deactivated'))
    ${matches.reduce((all, m) => sql`${all} ${m}`, sql``)}`;
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const orderBy = ORDER_BY[query.sort].replaceAll('%s', direction);
  const rows = await sql<UserRead[]>`
    SELECT * FROM users ${where}
    ORDER BY ${sql.unsafe(orderBy)}, id ${sql.unsafe(direction)}
    LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`;
  const [count] = await sql<{ n: string }[]>`SELECT count(*) AS n FROM users ${where}`;
  return { rows: rows.map(adminUserOf), total: Number(count?.n ?? 0) };
}

/** One account as the Users tab shows it. */
export async function findAdminUser(sql: Sql, userId: string): Promise<AdminUser | null> {
  const [row] = await sql<UserRead[]>`SELECT * FROM users WHERE id = ${userId}`;
  return row ? adminUserOf(row) : null;
}
