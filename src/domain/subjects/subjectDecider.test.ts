import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { SubjectEntry, SubjectEvent } from './subject.ts';
import { SUBJECT_CHANGED_MEANWHILE, subjectDecider } from './subjectDecider.ts';
import { subjectNameKey } from './subjectName.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now };
const spec = deciderSpec(subjectDecider);
const entry: SubjectEntry = {
  name: 'Physics (Grade 11-12)',
  description: 'Motion and energy.',
  category: 'Science',
  gradeLevel: 'grade_11_12',
};
const added: SubjectEvent = { type: 'SubjectAdded', data: { subjectId: 's1', ...entry, at } };
const deactivated: SubjectEvent = { type: 'SubjectDeactivated', data: { subjectId: 's1', at } };
const claimedFrom = subjectNameKey('grade_11_12', 'Physics (Grade 11-12)');

describe('subject decider', () => {
  it('adds a subject with its name tidied and empty optional fields as null', () => {
    spec
      .given([])
      .when({
        type: 'AddSubject',
        data: {
          subjectId: 's1',
          entry: { name: '  Physics   (Grade 11-12) ', description: '  ', category: '', gradeLevel: 'grade_11_12' },
        },
        metadata,
      })
      .thenEvents([
        {
          type: 'SubjectAdded',
          data: { subjectId: 's1', name: 'Physics (Grade 11-12)', description: null, category: null, gradeLevel: 'grade_11_12', at },
        },
      ]);
  });

  it('refuses a blank name and a subject that already exists', () => {
    spec
      .given([])
      .when({ type: 'AddSubject', data: { subjectId: 's1', entry: { ...entry, name: '   ' } }, metadata })
      .thenThrows('Name is required', 'invalid');
    spec
      .given([added])
      .when({ type: 'AddSubject', data: { subjectId: 's1', entry }, metadata })
      .thenThrows('This subject already exists', 'conflict');
  });

  it('edits the whole entry, and records nothing when nothing changes', () => {
    const edited = { ...entry, name: 'Physics (University/College)', gradeLevel: 'university' as const, category: 'Sciences' };
    spec
      .given([added])
      .when({ type: 'EditSubject', data: { subjectId: 's1', entry: edited, claimedFrom }, metadata })
      .thenEvents([{ type: 'SubjectEdited', data: { subjectId: 's1', ...edited, at } }]);
    spec
      .given([added])
      .when({
        type: 'EditSubject',
        data: { subjectId: 's1', entry: { ...entry, description: ' Motion and energy. ' }, claimedFrom },
        metadata,
      })
      .thenNothing();
  });

  it('refuses an edit decided on a name that has changed since it was read (its claim would be wrong)', () => {
    const renamed: SubjectEvent = { type: 'SubjectEdited', data: { subjectId: 's1', ...entry, name: 'Physics II (Grade 11-12)', at } };
    spec
      .given([added, renamed])
      .when({ type: 'EditSubject', data: { subjectId: 's1', entry, claimedFrom }, metadata })
      .thenThrows(SUBJECT_CHANGED_MEANWHILE, 'conflict');
  });

  it('keeps a deactivated subject deactivated through an edit', () => {
    const edited = { ...entry, description: 'Waves.' };
    spec
      .given([added, deactivated, { type: 'SubjectEdited', data: { subjectId: 's1', ...edited, at } }])
      .when({ type: 'ReactivateSubject', data: { subjectId: 's1' }, metadata })
      .thenEvents([{ type: 'SubjectReactivated', data: { subjectId: 's1', at } }]);
  });

  it('deactivates and reactivates once each, however often asked', () => {
    spec
      .given([added])
      .when({ type: 'DeactivateSubject', data: { subjectId: 's1' }, metadata })
      .thenEvents([deactivated]);
    spec
      .given([added, deactivated])
      .when({ type: 'DeactivateSubject', data: { subjectId: 's1' }, metadata })
      .thenNothing();
    spec
      .given([added])
      .when({ type: 'ReactivateSubject', data: { subjectId: 's1' }, metadata })
      .thenNothing();
    spec
      .given([added, deactivated])
      .when({ type: 'ReactivateSubject', data: { subjectId: 's1' }, metadata })
      .thenEvents([{ type: 'SubjectReactivated', data: { subjectId: 's1', at } }]);
  });

  it.each([
    ['EditSubject', { subjectId: 's9', entry, claimedFrom }],
    ['DeactivateSubject', { subjectId: 's9' }],
    ['ReactivateSubject', { subjectId: 's9' }],
  ] as const)('%s of a subject that was never added is not found', (type, data) => {
    spec
      .given([])
      .when({ type, data, metadata } as Parameters<typeof subjectDecider.decide>[0])
      .thenThrows('Subject not found', 'not_found');
  });
});
