import { defineProjection, type ProjectedEvent } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { type StudentRow, students } from './tables.ts';

const handles = ['StudentProfileCreated', 'StudentAccountUpdated', 'SecondaryLoginSet', 'StudentProfileErased'] as const;
type StudentEvent = ProjectedEvent<(typeof handles)[number]>;

function applyStudentEvent(row: StudentRow | null, event: StudentEvent): StudentRow | null {
  if (event.type === 'StudentProfileCreated') {
    const d = event.data;
    return {
      id: d.studentId,
      user_id: d.userId,
      parent_id: d.parentId,
      first_name: d.firstName,
      last_name: d.lastName,
      grade: d.grade,
      school_year_start_month: d.schoolYearStartMonth,
      is_university_student: d.isUniversityStudent,
      notes: null,
      secondary_username: null,
      has_secondary_login: false,
      created_at: d.at,
    };
  }
  if (!row) return null;
  switch (event.type) {
    case 'StudentAccountUpdated':
      return {
        ...row,
        grade: event.data.grade,
        is_university_student: event.data.isUniversityStudent,
        school_year_start_month: event.data.schoolYearStartMonth,
      };
    case 'SecondaryLoginSet':
      // Setting the login again renames it: the new username replaces the previous one.
      return { ...row, secondary_username: event.data.secondaryUsername, has_secondary_login: true };
    case 'StudentProfileErased':
      return null;
  }
}

/** Student profiles, with their grade and view-only login. */
export const studentsProjector = defineProjection({
  name: 'students',
  handles,
  tables: [students],
  apply: (tx, events) => foldRows(tx, students, events, { keyOf: (e) => e.data.studentId, apply: applyStudentEvent }),
});
