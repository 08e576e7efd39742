import type { Sql } from '../../adapters/db/db.ts';

/**
 * The contact messages a person sent: while signed in as `userId`, or from the address `email`
 * (ignoring case); either may be null. Deleting the account erases them.
 */
export async function contactMessagesOf(sql: Sql, sender: { userId: string | null; email: string | null }): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM contact_messages
    WHERE sender_user_id = ${sender.userId} OR lower(email) = lower(${sender.email})
    ORDER BY received_at, id`;
  return rows.map((r) => r.id);
}
