import type { Sql } from '../../adapters/db/db.ts';
import type { EntityKind } from '../../domain/operations/entityKinds.ts';

/** How the console names a person whose account was erased (their read-model rows are gone). */
export const DELETED_USER = 'Deleted user';

export interface EntityRef {
  kind: EntityKind;
  id: string;
}

export const entityKey = (ref: EntityRef) => `${ref.kind}:${ref.id}`;

const fullName = (first: string | null, last: string | null): string | null => `${first ?? ''} ${last ?? ''}`.trim() || null;

interface Named {
  id: string;
  name: string | null;
}
interface WithPeople {
  id: string;
  subject: string | null;
  student: string | null;
  tutor?: string | null;
}

/** "Algebra 1 · Ann Lee", "Algebra 1 · Ann Lee with Tom Tutor": what a purchase, course or session is about. */
function aboutWhom(row: WithPeople): string {
  const student = row.student ?? DELETED_USER;
  const people = row.tutor === undefined ? student : `${student} with ${row.tutor ?? DELETED_USER}`;
  return row.subject ? `${row.subject} · ${people}` : people;
}

/**
 * The names staff read instead of ids, resolved at read time from the read models that hold them
 * (users, students, purchases, sessions, courses, promo codes), so no name is copied anywhere an
 * erasure would have to find it. A person whose rows are gone reads "Deleted user"; an entity the
 * read models do not know (or a kind with no natural name) has no entry.
 */
export async function entityNames(sql: Sql, refs: readonly EntityRef[]): Promise<Map<string, string>> {
  const ids = (kinds: EntityKind[]) => [...new Set(refs.filter((r) => kinds.includes(r.kind)).map((r) => r.id))];
  const names = new Map<string, string>();
  const people = ids(['user', 'tutor']);
  const students = ids(['student']);
  const purchases = ids(['purchase']);
  const courses = ids(['course']);
  const sessions = ids(['session']);
  const promos = ids(['promo']);

  const [userRows, studentRows, purchaseRows, courseRows, sessionRows, promoRows] = await Promise.all([
    people.length ? sql<Named[]>`SELECT id, trim(first_name || ' ' || last_name) AS name FROM users WHERE id = ANY(${people}::text[])` : [],
    students.length
      ? sql<Named[]>`SELECT id, trim(first_name || ' ' || last_name) AS name FROM students WHERE id = ANY(${students}::text[])`
      : [],
    purchases.length
      ? sql<WithPeople[]>`
          SELECT p.id, sub.name AS subject, nullif(trim(st.first_name || ' ' || st.last_name), '') AS student
          FROM purchases p LEFT JOIN subjects sub ON sub.id = p.subject_id LEFT JOIN students st ON st.id = p.student_id
          WHERE p.id = ANY(${purchases}::text[])`
      : [],
    courses.length
      ? sql<WithPeople[]>`
          SELECT c.id, sub.name AS subject, nullif(trim(st.first_name || ' ' || st.last_name), '') AS student
          FROM student_courses c LEFT JOIN subjects sub ON sub.id = c.subject_id LEFT JOIN students st ON st.id = c.student_id
          WHERE c.id = ANY(${courses}::text[])`
      : [],
    sessions.length
      ? sql<Required<WithPeople>[]>`
          SELECT s.id, s.subject_name AS subject, nullif(trim(st.first_name || ' ' || st.last_name), '') AS student,
                 nullif(trim(t.first_name || ' ' || t.last_name), '') AS tutor
          FROM sessions s LEFT JOIN students st ON st.id = s.student_id LEFT JOIN users t ON t.id = s.tutor_id
          WHERE s.id = ANY(${sessions}::text[])`
      : [],
    promos.length ? sql<Named[]>`SELECT id, code AS name FROM promo_codes WHERE id = ANY(${promos}::text[])` : [],
  ]);

  const users = new Map(userRows.map((r) => [r.id, fullName(r.name, null)]));
  for (const ref of refs) {
    if (ref.kind === 'user' || ref.kind === 'tutor') names.set(entityKey(ref), users.get(ref.id) ?? DELETED_USER);
  }
  const studentNames = new Map(studentRows.map((r) => [r.id, fullName(r.name, null)]));
  for (const id of students) names.set(`student:${id}`, studentNames.get(id) ?? DELETED_USER);
  for (const row of purchaseRows) names.set(`purchase:${row.id}`, aboutWhom(row));
  for (const row of courseRows) names.set(`course:${row.id}`, aboutWhom(row));
  for (const row of sessionRows) names.set(`session:${row.id}`, aboutWhom(row));
  for (const row of promoRows) if (row.name) names.set(`promo:${row.id}`, row.name);
  return names;
}

/** Person ids → their names ("Deleted user" once erased): an alert's or a payout line's people. */
export async function personNames(sql: Sql, userIds: readonly string[]): Promise<Map<string, string>> {
  const names = await entityNames(
    sql,
    userIds.map((id) => ({ kind: 'user' as const, id })),
  );
  return new Map(userIds.map((id) => [id, names.get(`user:${id}`) ?? DELETED_USER]));
}
