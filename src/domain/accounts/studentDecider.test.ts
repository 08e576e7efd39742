import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { studentDecider } from './studentDecider.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now };
const spec = deciderSpec(studentDecider);
const created = {
  type: 'StudentProfileCreated' as const,
  data: {
    studentId: 's',
    userId: 'u',
    parentId: null,
    firstName: 'A',
    lastName: 'B',
    grade: '',
    isUniversityStudent: false,
    schoolYearStartMonth: null,
    at,
  },
};
const erased = { type: 'StudentProfileErased' as const, data: { studentId: 's', userId: 'u', at } };
const setLogin = {
  type: 'SetSecondaryLogin' as const,
  data: { studentId: 's', secondaryUsername: 'v', secondaryPasswordHash: 'h' },
  metadata,
};

describe('student decider', () => {
  it('sets a secondary login only on an existing, unerased profile', () => {
    spec.given([]).when(setLogin).thenThrows('Student not found', 'not_found');
    spec.given([created, erased]).when(setLogin).thenThrows('Student not found', 'not_found');
    spec
      .given([created])
      .when(setLogin)
      .thenEvents([
        { type: 'SecondaryLoginSet', data: { studentId: 's', userId: 'u', secondaryUsername: 'v', secondaryPasswordHash: 'h', at } },
      ]);
  });

  it('sets the grade and school year; University/College makes a university student', () => {
    spec
      .given([created])
      .when({ type: 'UpdateStudentAccount', data: { studentId: 's', grade: 'University/College', schoolYearStartMonth: 9 }, metadata })
      .thenEvents([
        {
          type: 'StudentAccountUpdated',
          data: { studentId: 's', userId: 'u', grade: 'University/College', isUniversityStudent: true, schoolYearStartMonth: 9, at },
        },
      ]);
    spec
      .given([created, erased])
      .when({ type: 'UpdateStudentAccount', data: { studentId: 's', grade: 'Grade 9', schoolYearStartMonth: 9 }, metadata })
      .thenThrows('Student not found', 'not_found');
  });

  it('creates a profile once and erases it once', () => {
    const { at: _at, ...data } = created.data;
    spec.given([created]).when({ type: 'CreateStudentProfile', data, metadata }).thenNothing();
    spec
      .given([created, erased])
      .when({ type: 'EraseStudentProfile', data: { studentId: 's' }, metadata })
      .thenNothing();
    spec
      .given([created])
      .when({ type: 'EraseStudentProfile', data: { studentId: 's' }, metadata })
      .thenEvents([erased]);
  });

  it('renames a view-only login keeping its password, and needs a password for a new one', () => {
    const rename = {
      type: 'SetSecondaryLogin' as const,
      data: { studentId: 's', secondaryUsername: 'w', secondaryPasswordHash: null },
      metadata,
    };
    spec.given([created]).when(rename).thenThrows('Password must be at least 6 characters long', 'invalid');
    spec
      .given([
        created,
        { type: 'SecondaryLoginSet', data: { studentId: 's', userId: 'u', secondaryUsername: 'v', secondaryPasswordHash: 'h', at } },
      ])
      .when(rename)
      .thenEvents([
        { type: 'SecondaryLoginSet', data: { studentId: 's', userId: 'u', secondaryUsername: 'w', secondaryPasswordHash: 'h', at } },
      ]);
  });
});
