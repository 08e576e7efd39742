import { defineProjection } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { subjects } from './tables.ts';

/** The subject catalogue, active and deactivated. */
export const subjectsProjector = defineProjection({
  name: 'subjects',
  handles: ['SubjectAdded', 'SubjectEdited', 'SubjectDeactivated', 'SubjectReactivated'],
  tables: [subjects],
  apply: (tx, events) =>
    foldRows(tx, subjects, events, {
      keyOf: (e) => e.data.subjectId,
      apply(row, e) {
        switch (e.type) {
          case 'SubjectAdded':
          case 'SubjectEdited': {
            const { subjectId, name, description, category, gradeLevel, at } = e.data;
            const entry = { name, description, category, grade_level: gradeLevel, updated_at: at };
            if (row) return { ...row, ...entry };
            return e.type === 'SubjectAdded' ? { id: subjectId, ...entry, is_active: true, created_at: at } : null;
          }
          case 'SubjectDeactivated':
          case 'SubjectReactivated':
            return row && { ...row, is_active: e.type === 'SubjectReactivated', updated_at: e.data.at };
        }
      },
    }),
});
