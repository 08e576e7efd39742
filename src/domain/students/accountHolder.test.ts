import { describe, expect, it } from 'vitest';
import { holdersOf, isAccountHolder, mayAccessStudent, type StudentActor } from './accountHolder.ts';

/** An adult student holding their own account, and a child held by their parent. */
const adult = { userId: 'u-adult', parentId: null };
const child = { userId: 'u-child', parentId: 'u-parent' };

const as = (role: string, userId: string, studentId: string | null = null): StudentActor => ({ role, userId, studentId });
const may = (actor: StudentActor, studentId: string, student: typeof child | typeof adult) => ({
  act: mayAccessStudent(actor, studentId, student, 'act'),
  read: mayAccessStudent(actor, studentId, student, 'read'),
});

describe('the account holder of a student', () => {
  it('names the student’s own login, then a child’s parent', () => {
    expect(holdersOf(adult)).toEqual(['u-adult']);
    expect(holdersOf(child)).toEqual(['u-child', 'u-parent']);
  });

  it('the student themselves and the parent act and read', () => {
    expect(may(as('student', 'u-adult'), 's-adult', adult)).toEqual({ act: true, read: true });
    expect(may(as('parent', 'u-parent'), 's-child', child)).toEqual({ act: true, read: true });
    expect(may(as('student', 'u-child'), 's-child', child)).toEqual({ act: true, read: true });
  });

  it('someone else’s student: neither', () => {
    expect(may(as('parent', 'u-other'), 's-child', child)).toEqual({ act: false, read: false });
    expect(may(as('student', 'u-adult'), 's-child', child)).toEqual({ act: false, read: false });
  });

  it('a view-only login reads its own student and never acts, not even with a holder’s user id', () => {
    expect(may(as('student_secondary', 'u-child', 's-child'), 's-child', child)).toEqual({ act: false, read: true });
    expect(may(as('student_secondary', 'u-child', 's-child'), 's-other', child)).toEqual({ act: false, read: false });
  });

  it('an admin reads any student and acts for none', () => {
    expect(may(as('admin', 'u-admin'), 's-child', child)).toEqual({ act: false, read: true });
  });

  it('a staff or tutor account named on a profile is no holder: only family logins hold', () => {
    expect(isAccountHolder(as('tutor', 'u-adult'), holdersOf(adult))).toBe(false);
    expect(may(as('tutor', 'u-adult'), 's-adult', adult)).toEqual({ act: false, read: false });
    expect(may(as('finance', 'u-parent'), 's-child', child)).toEqual({ act: false, read: false });
  });
});
