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

const personOf = ({ id, email, first_name, last_name, timezone }: SessionPerson): SessionPerson => ({
  id,
  email,
  first_name,
  last_name,
  timezone,
});

/**
 * Who hears about a session: the family (the parent who holds a child's account, otherwise the
 * student) and the tutor. A deleted account has no users row; an erased address is never written to.
 */
export async function sessionPeople(
  sql: Sql,
  booked: Pick<SessionBookedData, 'studentId' | 'studentUserId' | 'tutorId'>,
): Promise<{ family: SessionPerson | null; tutor: SessionPerson | null }> {
  // The family's account (resolved from the student in the same statement) and the tutor's.
  const users = await sql<(SessionPerson & { is_family: boolean })[]>`
    WITH family AS (
      SELECT coalesce((SELECT coalesce(parent_id, user_id) FROM students WHERE id = ${booked.studentId}), ${booked.studentUserId}) AS id)
    SELECT u.id, u.email, u.first_name, u.last_name, u.timezone, u.id = family.id AS is_family
    FROM family JOIN users u ON u.id = family.id OR u.id = ${booked.tutorId}`;
  const reachable = (person: SessionPerson | undefined) => (person?.email && person.email !== ERASED ? person : null);
  const familyRow = users.find((u) => u.is_family);
  const tutorRow = users.find((u) => u.id === booked.tutorId);
  return {
    family: reachable(familyRow && personOf(familyRow)),
    tutor: reachable(tutorRow && personOf(tutorRow)),
  };
}

/**
 * Names a session's notices use: the student's (their profile's) and those of the users who acted
 * (who booked, moved or cancelled), by user id. A deleted or erased person has none.
 */
export async function sessionNames(
  sql: Sql,
  studentId: string,
  userIds: readonly string[],
): Promise<{ student: string | null; people: Map<string, string> }> {
  const rows = await sql<{ kind: 'student' | 'user'; id: string; first_name: string; last_name: string }[]>`
    SELECT 'student' AS kind, id, first_name, last_name FROM students WHERE id = ${studentId}
    UNION ALL
    SELECT 'user' AS kind, id, first_name, last_name FROM users WHERE id = ANY(${[...userIds]}::text[])`;
  const nameOf = (r: { first_name: string; last_name: string }) =>
    r.first_name === ERASED ? null : [r.first_name, r.last_name].filter((p) => p && p !== ERASED).join(' ') || null;
  const studentRow = rows.find((r) => r.kind === 'student');
  const people = new Map<string, string>();
  for (const r of rows) {
    const name = r.kind === 'user' ? nameOf(r) : null;
    if (name) people.set(r.id, name);
  }
  return { student: studentRow ? nameOf(studentRow) : null, people };
}
