import type { Sql } from '../../adapters/db/db.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { defineProjection } from '../kit/defineProjection.ts';
import { deleteRows, insertRows, updateRows } from '../kit/writes.ts';
import { type PendingTutorApplicationRow, pendingTutorApplications } from './tables.ts';

type Review = Pick<PendingTutorApplicationRow, 'id' | 'status' | 'reviewed_at' | 'reviewed_by'>;
type Erasure = Pick<PendingTutorApplicationRow, 'id' | 'email' | 'first_name' | 'last_name' | 'google_id'>;
const statusOf = { TutorApplicationApproved: 'approved', TutorApplicationRejected: 'rejected', TutorApplicationDenied: 'denied' } as const;

/**
 * Tutor applications and their review (pending, approved, rejected, denied); an applicant's
 * deletion removes theirs; a denial, or the approved tutor's profile, erases the applicant's name and address ("[erased]").
 */
export const tutorApplicationsProjector = defineProjection({
  name: 'tutor_applications',
  handles: [
    'TutorApplicationSubmitted',
    'TutorApplicationApproved',
    'TutorApplicationRejected',
    'TutorApplicationDenied',
    'TutorProfileCreated',
    'AccountDeleted',
  ],
  tables: [pendingTutorApplications],
  async apply(tx, events) {
    // Deletions first, then the applications submitted after the applicant's last deletion in the batch, then reviews.
    const submitted = new Map<string, PendingTutorApplicationRow>();
    const deleted = new Set<string>();
    const reviews: Review[] = [];
    const erasures: Erasure[] = [];
    for (const e of events) {
      if (e.type === 'AccountDeleted') {
        deleted.add(e.data.userId);
        for (const [id, row] of submitted) if (row.user_id === e.data.userId) submitted.delete(id);
        continue;
      }
      if (e.type === 'TutorProfileCreated') {
        // The approved applicant is a tutor now: the application's copy of their data is erased (its key shredded).
        erasures.push({ id: e.data.applicationId, email: ERASED, first_name: ERASED, last_name: ERASED, google_id: null });
        continue;
      }
      if (e.type !== 'TutorApplicationSubmitted') {
        const d = e.data;
        reviews.push({ id: d.applicationId, status: statusOf[e.type], reviewed_at: d.at, reviewed_by: d.reviewedBy });
        if (e.type === 'TutorApplicationDenied')
          erasures.push({ id: d.applicationId, email: ERASED, first_name: ERASED, last_name: ERASED, google_id: null });
        continue;
      }
      if (submitted.has(e.data.applicationId)) continue;
      submitted.set(e.data.applicationId, {
        id: e.data.applicationId,
        user_id: e.data.userId,
        email: e.data.email,
        first_name: e.data.firstName,
        last_name: e.data.lastName,
        google_id: e.data.googleId,
        invitation_id: e.data.invitationId ?? null,
        status: 'pending',
        applied_at: e.data.at,
        reviewed_at: null,
        reviewed_by: null,
      });
    }
    await deleteRows(tx, pendingTutorApplications, 'user_id', [...deleted]);
    await insertRows(tx, pendingTutorApplications, [...submitted.values()], 'nothing');
    await updateRows(tx, pendingTutorApplications, ['status', 'reviewed_at', 'reviewed_by'], reviews);
    await updateRows(tx, pendingTutorApplications, ['email', 'first_name', 'last_name', 'google_id'], erasures);
  },
});

/** A tutor application as the admin lists users (spec part 2 §7): the applicant's id is the application's key. */
export interface AdminListedApplicant {
  id: string;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  email: string;
  role: 'tutor';
  status: string;
  googleId: string | null;
  authProvider: 'google';
  createdAt: string;
}

/** Tutor applications by status (pending by default), oldest first. Denied ones are erased and never listed. */
export async function listTutorApplications(sql: Sql, statuses: readonly string[] = ['pending']): Promise<AdminListedApplicant[]> {
  const rows = await sql<PendingTutorApplicationRow[]>`
    SELECT * FROM pending_tutor_applications WHERE status = ANY(${[...statuses]}) AND status <> 'denied' ORDER BY applied_at, id`;
  return rows.map((r) => ({
    id: r.user_id,
    firstName: r.first_name,
    lastName: r.last_name,
    username: null,
    email: r.email,
    role: 'tutor',
    status: r.status,
    googleId: r.google_id,
    authProvider: 'google',
    createdAt: new Date(r.applied_at).toISOString(),
  }));
}

/** One application by applicant, denied ones included (their fields erased). */
export async function findTutorApplication(
  sql: Sql,
  applicantId: string,
): Promise<{ status: string; email: string; firstName: string | null } | null> {
  const [row] = await sql<{ status: string; email: string; first_name: string | null }[]>`
    SELECT status, email, first_name FROM pending_tutor_applications WHERE user_id = ${applicantId} LIMIT 1`;
  return row ? { status: row.status, email: row.email, firstName: row.first_name } : null;
}

/** The admin overview's counters: accounts by role, and applications awaiting review. */
export async function adminOverview(
  sql: Sql,
): Promise<{ totalUsers: number; totalStudents: number; totalTutors: number; pendingApprovals: number }> {
  const [row] = await sql<{ total_users: number; total_students: number; total_tutors: number; pending_approvals: number }[]>`
    SELECT (SELECT count(*)::int FROM users) AS total_users,
           (SELECT count(*)::int FROM users WHERE role = 'student') AS total_students,
           (SELECT count(*)::int FROM users WHERE role = 'tutor') AS total_tutors,
           (SELECT count(*)::int FROM pending_tutor_applications WHERE status = 'pending') AS pending_approvals`;
  return {
    totalUsers: row?.total_users ?? 0,
    totalStudents: row?.total_students ?? 0,
    totalTutors: row?.total_tutors ?? 0,
    pendingApprovals: row?.pending_approvals ?? 0,
  };
}
