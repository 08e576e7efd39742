import type { z } from 'zod';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type { secondaryLoginSet, studentProfileCreated } from '../../domain/accounts/studentProfile.ts';
import type { Projector } from '../runner/projector.ts';
import { foldRows } from '../runner/rowFold.ts';

export interface StudentRow {
  id: string;
  user_id: string;
  parent_id: string | null;
  first_name: string;
  last_name: string;
  grade: string;
  school_year_start_month: number | null;
  is_university_student: boolean;
  notes: string | null;
  secondary_username: string | null;
  has_secondary_login: boolean;
  created_at: string;
}

const columns = [
  'id',
  'user_id',
  'parent_id',
  'first_name',
  'last_name',
  'grade',
  'school_year_start_month',
  'is_university_student',
  'notes',
  'secondary_username',
  'has_secondary_login',
  'created_at',
] as const;
const types = ['text', 'text', 'text', 'text', 'text', 'text', 'int', 'boolean', 'text', 'text', 'boolean', 'timestamptz'];

function applyStudentEvent(row: StudentRow | null, event: RecordedEvent): StudentRow | null {
  if (event.type === 'StudentProfileCreated') {
    const d = event.data as z.infer<typeof studentProfileCreated>;
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
  if (event.type === 'SecondaryLoginSet') {
    return { ...row, secondary_username: (event.data as z.infer<typeof secondaryLoginSet>).secondaryUsername, has_secondary_login: true };
  }
  if (event.type === 'StudentProfileErased') return null;
  return row;
}

export const studentsProjector: Projector = {
  name: 'students',
  handles: ['StudentProfileCreated', 'SecondaryLoginSet', 'StudentProfileErased'],
  tables: ['students'],
  async setup(tx) {
    await tx.unsafe(`
      CREATE TABLE IF NOT EXISTS students (
        id                      text PRIMARY KEY,
        user_id                 text NOT NULL,
        parent_id               text,
        first_name              text NOT NULL,
        last_name               text NOT NULL,
        grade                   text NOT NULL,
        school_year_start_month int,
        is_university_student   boolean NOT NULL DEFAULT false,
        notes                   text,
        secondary_username      text,
        has_secondary_login     boolean NOT NULL DEFAULT false,
        created_at              timestamptz NOT NULL
      );`);
  },
  async indexes(tx) {
    await tx.unsafe(`
      CREATE INDEX IF NOT EXISTS students_user ON students (user_id);
      CREATE INDEX IF NOT EXISTS students_parent ON students (parent_id);
      CREATE UNIQUE INDEX IF NOT EXISTS students_secondary_username ON students (lower(secondary_username));`);
  },
  apply: (tx, events) =>
    foldRows<StudentRow>(tx, events, {
      table: 'students',
      columns,
      types,
      keyOf: (e) => (e.data as { studentId: string }).studentId,
      apply: applyStudentEvent,
    }),
};

export const tutorApplicationsProjector: Projector = {
  name: 'tutor_applications',
  handles: ['TutorApplicationSubmitted', 'AccountDeleted'],
  tables: ['pending_tutor_applications'],
  async setup(tx) {
    await tx.unsafe(`
      CREATE TABLE IF NOT EXISTS pending_tutor_applications (
        id            text PRIMARY KEY,
        user_id       text NOT NULL,
        email         text NOT NULL,
        first_name    text,
        last_name     text,
        google_id     text,
        invitation_id text,
        status        text NOT NULL DEFAULT 'pending',
        applied_at    timestamptz NOT NULL,
        reviewed_at   timestamptz,
        reviewed_by   text
      );`);
  },
  async apply(tx, events) {
    for (const e of events) {
      const d = e.data as {
        applicationId?: string;
        userId: string;
        email?: string;
        firstName?: string;
        lastName?: string;
        googleId?: string | null;
        at: string;
      };
      if (e.type === 'TutorApplicationSubmitted') {
        await tx`INSERT INTO pending_tutor_applications (id, user_id, email, first_name, last_name, google_id, applied_at)
                 VALUES (${d.applicationId ?? d.userId}, ${d.userId}, ${d.email ?? ''}, ${d.firstName ?? null}, ${d.lastName ?? null}, ${d.googleId ?? null}, ${d.at})
                 ON CONFLICT (id) DO NOTHING`;
      } else {
        await tx`DELETE FROM pending_tutor_applications WHERE user_id = ${d.userId}`;
      }
    }
  },
};
