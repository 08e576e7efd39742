import type { CourseStatus } from '../../domain/courses/course.ts';
import { int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/**
 * A student's courses (spec part 1 §3 `student_courses`). The ledger counts are kept so that
 * `sessions_remaining` = bought − reserved − used, as the course's stream computes it; reserved
 * (booked) and used are shown beside what is left, so a booked session is never shown as used.
 */
export const studentCourses = table(
  'student_courses',
  {
    id: text().primaryKey(),
    student_id: text(),
    subject_id: text(),
    package_id: text(),
    tutor_id: text().nullable(),
    purchase_id: text(),
    status: text<CourseStatus>().default('enrolled'),
    total_sessions: int(),
    reserved_sessions: int().default(0),
    used_sessions: int().default(0),
    sessions_remaining: int(),
    /** The repurchase being paid for, if any: End Course and Repurchase are not offered meanwhile (courseOffers.ts). */
    pending_repurchase_id: text().nullable(),
    created_at: timestamptz(),
  },
  {
    indexes: [
      { name: 'student_courses_student', on: ['student_id'] },
      { name: 'student_courses_purchase', on: ['purchase_id'] },
    ],
  },
);
export type StudentCourseRow = RowOf<typeof studentCourses>;
