import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { subjectNameKey } from './subjectName.ts';
import { subjectNameDecider } from './subjectNameDecider.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now };
const spec = deciderSpec(subjectNameDecider);
const reserved = (subjectId: string) => ({ type: 'SubjectNameReserved' as const, data: { subjectId, at } });
const taken = 'A subject named "Physics" already exists at Grade 11-12';

describe('subject name reservation decider', () => {
  it('reserves a free name, is idempotent for its holder and refuses another subject', () => {
    spec
      .given([])
      .when({ type: 'ReserveSubjectName', data: { subjectId: 'a', takenMessage: taken }, metadata })
      .thenEvents([reserved('a')]);
    spec
      .given([reserved('a')])
      .when({ type: 'ReserveSubjectName', data: { subjectId: 'a', takenMessage: taken }, metadata })
      .thenNothing();
    spec
      .given([reserved('a')])
      .when({ type: 'ReserveSubjectName', data: { subjectId: 'b', takenMessage: taken }, metadata })
      .thenThrows(taken, 'conflict');
  });

  it('releases a name only for its holder, and lets it be reserved again', () => {
    spec
      .given([reserved('a')])
      .when({ type: 'ReleaseSubjectName', data: { subjectId: 'b' }, metadata })
      .thenNothing();
    spec
      .given([reserved('a')])
      .when({ type: 'ReleaseSubjectName', data: { subjectId: 'a' }, metadata })
      .thenEvents([{ type: 'SubjectNameReleased', data: { subjectId: 'a', at } }]);
    spec
      .given([reserved('a'), { type: 'SubjectNameReleased', data: { subjectId: 'a', at } }])
      .when({ type: 'ReserveSubjectName', data: { subjectId: 'b', takenMessage: taken }, metadata })
      .thenEvents([reserved('b')]);
  });

  it('keys a name by its level, ignoring case and spacing', () => {
    expect(subjectNameKey('grade_11_12', ' physics  (Grade 11-12)')).toBe(subjectNameKey('grade_11_12', 'Physics (grade 11-12)'));
    expect(subjectNameKey('grade_11_12', 'Physics')).not.toBe(subjectNameKey('university', 'Physics'));
  });
});
