import { defineProjection, type ProjectedEvent } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { type StudentCourseRow, studentCourses } from './tables.ts';

const handles = [
  'CourseEnrolled',
  'CourseTutorChosen',
  'CourseActivated',
  'CourseEnded',
  'CourseCreditsAdded',
  'CourseCreditsRemoved',
  'CourseCreditsRestored',
  'CourseCreditReserved',
  'CourseCreditReleased',
  'CourseCreditConsumed',
  'CourseCreditForfeited',
  'CourseRepurchasePending',
  'CourseRepurchaseCleared',
] as const;
type CourseEvent = ProjectedEvent<(typeof handles)[number]>;

/** The counts move together: what remains is always bought − reserved − used. */
function ledger(row: StudentCourseRow, change: { total?: number; reserved?: number; used?: number }): StudentCourseRow {
  const total_sessions = row.total_sessions + (change.total ?? 0);
  const reserved_sessions = row.reserved_sessions + (change.reserved ?? 0);
  const used_sessions = row.used_sessions + (change.used ?? 0);
  return {
    ...row,
    total_sessions,
    reserved_sessions,
    used_sessions,
    sessions_remaining: total_sessions - reserved_sessions - used_sessions,
  };
}

function applyCourseEvent(row: StudentCourseRow | null, event: CourseEvent): StudentCourseRow | null {
  if (event.type === 'CourseEnrolled') {
    const d = event.data;
    return {
      id: d.courseId,
      student_id: d.studentId,
      subject_id: d.subjectId,
      package_id: d.packageId,
      tutor_id: null,
      purchase_id: d.purchaseId,
      status: 'enrolled',
      total_sessions: d.credits,
      reserved_sessions: 0,
      used_sessions: 0,
      sessions_remaining: d.credits,
      pending_repurchase_id: null,
      created_at: d.at,
    };
  }
  if (!row) return null;
  switch (event.type) {
    case 'CourseTutorChosen':
      return { ...row, tutor_id: event.data.tutorId };
    case 'CourseActivated':
      return { ...row, status: 'active' };
    case 'CourseEnded':
      return { ...row, status: 'inactive' };
    case 'CourseCreditsAdded':
      // The latest package bought is the course's package.
      return { ...ledger(row, { total: event.data.credits }), package_id: event.data.packageId };
    case 'CourseCreditsRemoved':
      return ledger(row, { total: -event.data.credits });
    case 'CourseCreditsRestored':
      return ledger(row, { total: event.data.credits });
    case 'CourseCreditReserved':
      return ledger(row, { reserved: 1 });
    case 'CourseCreditReleased':
      return ledger(row, { reserved: -1 });
    case 'CourseCreditConsumed':
    case 'CourseCreditForfeited':
      return ledger(row, { reserved: -1, used: 1 });
    case 'CourseRepurchasePending':
      return { ...row, pending_repurchase_id: event.data.purchaseId };
    case 'CourseRepurchaseCleared':
      // As on the stream: only the pending purchase's own end clears it.
      return row.pending_repurchase_id === event.data.purchaseId ? { ...row, pending_repurchase_id: null } : row;
  }
}

/** Students' courses with their tutor, status and the sessions they may still book. */
export const studentCoursesProjector = defineProjection({
  name: 'student_courses',
  handles,
  tables: [studentCourses],
  apply: (tx, events) => foldRows(tx, studentCourses, events, { keyOf: (e) => e.data.courseId, apply: applyCourseEvent }),
});
