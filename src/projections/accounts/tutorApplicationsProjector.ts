import { defineProjection } from '../kit/defineProjection.ts';
import { deleteRows, insertRows } from '../kit/writes.ts';
import { type PendingTutorApplicationRow, pendingTutorApplications } from './tables.ts';

/** Tutor applications awaiting review; an applicant's deletion removes theirs. */
export const tutorApplicationsProjector = defineProjection({
  name: 'tutor_applications',
  handles: ['TutorApplicationSubmitted', 'AccountDeleted'],
  tables: [pendingTutorApplications],
  async apply(tx, events) {
    // Deletions first, then the applications submitted after the applicant's last deletion in the batch.
    const submitted = new Map<string, PendingTutorApplicationRow>();
    const deleted = new Set<string>();
    for (const e of events) {
      if (e.type === 'AccountDeleted') {
        deleted.add(e.data.userId);
        for (const [id, row] of submitted) if (row.user_id === e.data.userId) submitted.delete(id);
        continue;
      }
      const d = e.data;
      if (submitted.has(d.applicationId)) continue;
      submitted.set(d.applicationId, {
        id: d.applicationId,
        user_id: d.userId,
        email: d.email,
        first_name: d.firstName,
        last_name: d.lastName,
        google_id: d.googleId,
        invitation_id: null,
        status: 'pending',
        applied_at: d.at,
        reviewed_at: null,
        reviewed_by: null,
      });
    }
    await deleteRows(tx, pendingTutorApplications, 'user_id', [...deleted]);
    await insertRows(tx, pendingTutorApplications, [...submitted.values()], 'nothing');
  },
});
