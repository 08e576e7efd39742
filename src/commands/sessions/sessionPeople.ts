import type { Sql } from '../../adapters/db/db.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import type { SessionBookedData } from '../../domain/sessions/session.ts';

export interface SessionPerson {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  timezone: string | null;
}

/**
 * Who hears about a session: the family (the parent who holds a child's account, otherwise the
 * student) and the tutor. A deleted account has no users row; an erased address is never written to.
 */
export async function sessionPeople(
  sql: Sql,
  booked: Pick<SessionBookedData, 'studentId' | 'studentUserId' | 'tutorId'>,
): Promise<{ family: SessionPerson | null; tutor: SessionPerson | null }> {
  const [student] = await sql<{ user_id: string; parent_id: string | null }[]>`
    SELECT user_id, parent_id FROM students WHERE id = ${booked.studentId}`;
  const familyId = student?.parent_id ?? student?.user_id ?? booked.studentUserId;
  const users = await sql<SessionPerson[]>`
    SELECT id, email, first_name, last_name, timezone FROM users WHERE id = ANY(${[familyId, booked.tutorId]})`;
  const reachable = (id: string) => users.find((u) => u.id === id && u.email && u.email !== ERASED) ?? null;
  return { family: reachable(familyId), tutor: reachable(booked.tutorId) };
}
