import { createHash } from 'node:crypto';
import type { TransactionSql } from '../../../adapters/db/db.ts';
import type { ProjectedEvent } from '../../kit/defineProjection.ts';
import type { AlertRow, AlertTutorRow } from './tables.ts';

/**
 * Families left without a tutor (issue 24 "no dead ends"): the alerts projection follows courses,
 * tutors and subjects in its own tables and raises, when a tutor stops being listed for a subject
 * (deactivated by an admin, account deleted, the subject dropped from what they teach):
 * - `tutor_left` for each open course they taught in it (the family must choose another tutor);
 * - `subject_without_tutor` for the subject's other open courses when no listed tutor teaches it
 *   any more (nobody to choose: a refund, or a tutor to recruit).
 * The family's choice of another tutor, or the course's end, closes the course's alerts; a
 * deactivated tutor's reactivation closes what the deactivation raised.
 */
export const courseTutorEvents = [
  'SubjectAdded',
  'SubjectEdited',
  'CourseEnrolled',
  'CourseTutorChosen',
  'CourseActivated',
  'CourseEnded',
  'TutorProfileCreated',
  'TutorQualificationsSet',
  'TutorOnboardingCompleted',
  'UserDeactivated',
  'UserReactivated',
  'AccountDeleted',
] as const;
export type CourseTutorEvent = ProjectedEvent<(typeof courseTutorEvents)[number]>;

const tracked = new Set<string>(courseTutorEvents);
export const isCourseTutorEvent = (e: { type: string }): e is CourseTutorEvent => tracked.has(e.type);

const isListed = (t: Pick<AlertTutorRow, 'onboarded' | 'deactivated' | 'deleted'>) => t.onboarded && !t.deactivated && !t.deleted;

/** One alert per event and course: a stable id, so a replayed batch raises nothing twice. */
function alertIdFor(eventId: string, courseId: string): string {
  const h = createHash('sha256').update(`${eventId}/${courseId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const TUTOR_FIELDS = { onboarded: false, deactivated: false, deleted: false, subject_ids: [] as string[] };

async function tutorOf(tx: TransactionSql, tutorId: string): Promise<AlertTutorRow | null> {
  const [row] = await tx<AlertTutorRow[]>`SELECT * FROM alert_tutors WHERE tutor_id = ${tutorId}`;
  return row ?? null;
}

async function saveTutor(tx: TransactionSql, row: AlertTutorRow): Promise<void> {
  await tx`INSERT INTO alert_tutors (tutor_id, onboarded, deactivated, deleted, subject_ids)
           VALUES (${row.tutor_id}, ${row.onboarded}, ${row.deactivated}, ${row.deleted}, ${tx.json(row.subject_ids)})
           ON CONFLICT (tutor_id) DO UPDATE SET onboarded = EXCLUDED.onboarded, deactivated = EXCLUDED.deactivated,
             deleted = EXCLUDED.deleted, subject_ids = EXCLUDED.subject_ids`;
}

type Departure = 'deactivated' | 'deleted' | 'dropped';

const whyOf = (why: Departure, subject: string) =>
  why === 'deactivated' ? 'was deactivated by an admin' : why === 'deleted' ? 'deleted their account' : `no longer teaches ${subject}`;

/**
 * The alerts a tutor's change raises: what they were listed for before and after, compared; the
 * courses they taught in the subjects they left, and those subjects' other courses when no listed
 * tutor is left.
 */
async function departures(
  tx: TransactionSql,
  e: CourseTutorEvent,
  before: AlertTutorRow,
  after: AlertTutorRow,
  why: Departure,
): Promise<AlertRow[]> {
  const kept = new Set(isListed(after) ? after.subject_ids : []);
  const lost = isListed(before) ? before.subject_ids.filter((s) => !kept.has(s)) : [];
  if (lost.length === 0) return [];
  const courses = await tx<{ course_id: string; student_id: string; purchase_id: string; subject_id: string; tutor_id: string | null }[]>`
    SELECT course_id, student_id, purchase_id, subject_id, tutor_id FROM alert_courses
    WHERE is_open AND subject_id = ANY(${lost}::text[]) ORDER BY course_id`;
  if (courses.length === 0) return [];
  const staffed = await tx<{ subject_id: string }[]>`
    SELECT DISTINCT s.subject_id FROM alert_tutors t, jsonb_array_elements_text(t.subject_ids) AS s(subject_id)
    WHERE t.tutor_id <> ${after.tutor_id} AND t.onboarded AND NOT t.deactivated AND NOT t.deleted AND s.subject_id = ANY(${lost}::text[])`;
  const stillTaught = new Set(staffed.map((r) => r.subject_id));
  const names = new Map(
    (
      await tx<{ subject_id: string; name: string }[]>`SELECT subject_id, name FROM alert_subjects WHERE subject_id = ANY(${lost}::text[])`
    ).map((r) => [r.subject_id, r.name]),
  );
  const at = e.recordedAt.toISOString();
  const alerts: AlertRow[] = [];
  for (const c of courses) {
    const subject = names.get(c.subject_id) ?? 'its subject';
    const theirs = c.tutor_id === after.tutor_id;
    const nobody = !stillTaught.has(c.subject_id);
    if (!theirs && !nobody) continue;
    const common = {
      id: alertIdFor(e.id, c.course_id),
      is_resolved: false,
      resolved_at: null,
      resolved_by: null,
      resolution_note: null,
      student_id: c.student_id,
      session_id: null,
      purchase_id: c.purchase_id,
      metadata: { courseId: c.course_id, subjectId: c.subject_id, subjectName: subject, tutorId: after.tutor_id, reason: why },
      created_at: at,
    } as const;
    const refund = nobody
      ? ` No other tutor teaches ${subject}: the family is told so and offered a refund of the unused sessions through support (Purchases tab), unless a tutor can be found.`
      : ' Other tutors teach it: the family is asked on their dashboard to choose another tutor.';
    alerts.push(
      theirs
        ? {
            ...common,
            type: 'tutor_left',
            severity: nobody ? 'high' : 'medium',
            user_id: after.tutor_id,
            title: `A family's tutor left: ${subject}`,
            description: `The tutor of this ${subject} course ${whyOf(why, subject)}. Sessions booked with them stay booked until the family chooses another tutor, which cancels them and gives their credits back; until then, check them with the family.${refund}`,
          }
        : {
            ...common,
            type: 'subject_without_tutor',
            severity: 'high',
            user_id: null,
            title: `No tutor teaches ${subject} any more`,
            description: `The last tutor of ${subject} ${whyOf(why, subject)} while this course is open.${refund}`,
          },
    );
  }
  return alerts;
}

/** The course's tutor alerts close once the family chose another tutor, or the course ended. */
async function resolveCourseAlerts(tx: TransactionSql, courseId: string, at: string): Promise<void> {
  await tx`UPDATE alerts SET is_resolved = true, resolved_at = ${at}, resolved_by = 'system'
           WHERE type IN ('tutor_left', 'subject_without_tutor') AND metadata->>'courseId' = ${courseId} AND NOT is_resolved`;
}

/** Applies one event to the tracking tables; returns the alerts it raises. */
export async function trackCourseTutors(tx: TransactionSql, e: CourseTutorEvent): Promise<AlertRow[]> {
  const at = e.recordedAt.toISOString();
  switch (e.type) {
    case 'SubjectAdded':
    case 'SubjectEdited':
      await tx`INSERT INTO alert_subjects (subject_id, name) VALUES (${e.data.subjectId}, ${e.data.name})
               ON CONFLICT (subject_id) DO UPDATE SET name = EXCLUDED.name`;
      return [];
    case 'CourseEnrolled':
      await tx`INSERT INTO alert_courses (course_id, student_id, purchase_id, subject_id, tutor_id, is_open)
               VALUES (${e.data.courseId}, ${e.data.studentId}, ${e.data.purchaseId}, ${e.data.subjectId}, NULL, true)
               ON CONFLICT (course_id) DO NOTHING`;
      return [];
    case 'CourseTutorChosen':
      await tx`UPDATE alert_courses SET tutor_id = ${e.data.tutorId} WHERE course_id = ${e.data.courseId}`;
      await resolveCourseAlerts(tx, e.data.courseId, at);
      return [];
    case 'CourseActivated':
      await tx`UPDATE alert_courses SET is_open = true WHERE course_id = ${e.data.courseId}`;
      return [];
    case 'CourseEnded':
      await tx`UPDATE alert_courses SET is_open = false WHERE course_id = ${e.data.courseId}`;
      await resolveCourseAlerts(tx, e.data.courseId, at);
      return [];
    case 'TutorProfileCreated':
      if (!(await tutorOf(tx, e.data.tutorId))) await saveTutor(tx, { tutor_id: e.data.tutorId, ...TUTOR_FIELDS });
      return [];
    case 'TutorOnboardingCompleted': {
      const row = (await tutorOf(tx, e.data.tutorId)) ?? { tutor_id: e.data.tutorId, ...TUTOR_FIELDS };
      await saveTutor(tx, { ...row, onboarded: true });
      return [];
    }
    case 'TutorQualificationsSet': {
      const before = (await tutorOf(tx, e.data.tutorId)) ?? { tutor_id: e.data.tutorId, ...TUTOR_FIELDS };
      const after = { ...before, subject_ids: e.data.qualifications.map((q) => q.subjectId) };
      await saveTutor(tx, after);
      return departures(tx, e, before, after, 'dropped');
    }
    case 'UserDeactivated':
    case 'UserReactivated':
    case 'AccountDeleted': {
      // A tutor's id is their user id; anyone else's account is not followed here.
      const before = await tutorOf(tx, e.data.userId);
      if (!before) return [];
      const after =
        e.type === 'UserDeactivated'
          ? { ...before, deactivated: true }
          : e.type === 'UserReactivated'
            ? { ...before, deactivated: false }
            : { ...before, deleted: true, subject_ids: [] };
      await saveTutor(tx, after);
      if (e.type === 'UserReactivated') {
        // Back on the platform: what their deactivation raised is over (their courses have them again).
        await tx`UPDATE alerts SET is_resolved = true, resolved_at = ${at}, resolved_by = 'system'
                 WHERE type IN ('tutor_left', 'subject_without_tutor') AND metadata->>'tutorId' = ${e.data.userId}
                   AND metadata->>'reason' = 'deactivated' AND NOT is_resolved`;
        return [];
      }
      return departures(tx, e, before, after, e.type === 'UserDeactivated' ? 'deactivated' : 'deleted');
    }
  }
}
