import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import type { eventCatalog } from '../../domain/eventCatalog.ts';
import type { DataOf } from '../../domain/kit/eventDefinition.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { currentUser } from './currentUser.ts';
import { findOwnStudent, findSecondaryLogin, isUsernameTaken, studentAccount, studentsOfParent } from './queries.ts';
import { studentsProjector } from './studentsProjector.ts';
import { students } from './tables.ts';
import { usersProjector } from './usersProjector.ts';

const created = (studentId: string, overrides: Partial<DataOf<typeof eventCatalog, 'StudentProfileCreated'>> = {}) =>
  event(`student-${studentId}`, 'StudentProfileCreated', {
    studentId,
    userId: `owner-${studentId}`,
    parentId: null,
    firstName: 'Sam',
    lastName: 'Park',
    grade: 'Grade 10',
    isUniversityStudent: false,
    schoolYearStartMonth: 9,
    at: '2025-03-01T00:00:00.000Z',
    ...overrides,
  });
const loginSet = (studentId: string, secondaryUsername: string, userId = `owner-${studentId}`) =>
  event(`student-${studentId}`, 'SecondaryLoginSet', {
    studentId,
    userId,
    secondaryUsername,
    secondaryPasswordHash: 'argon2-hash',
    at: '2025-03-02T00:00:00.000Z',
  });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('students read model, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('students');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [usersProjector, studentsProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('a profile becomes a row; a student who signed up with Google has no grade yet', async () => {
    await spec.given(created('s1'), created('s2', { grade: '', schoolYearStartMonth: null }));
    expect(await spec.rows(students, { id: 's1' })).toEqual([
      {
        id: 's1',
        user_id: 'owner-s1',
        parent_id: null,
        first_name: 'Sam',
        last_name: 'Park',
        grade: 'Grade 10',
        school_year_start_month: 9,
        is_university_student: false,
        notes: null,
        secondary_username: null,
        has_secondary_login: false,
        created_at: new Date('2025-03-01T00:00:00.000Z'),
      },
    ]);
    expect(await spec.rows(students, { id: 's2' })).toMatchObject([{ grade: '', school_year_start_month: null }]);
  });

  it('StudentAccountUpdated sets the grade, university flag and school-year start', async () => {
    await spec.given(
      created('s3', { grade: '', schoolYearStartMonth: null }),
      event('student-s3', 'StudentAccountUpdated', {
        studentId: 's3',
        userId: 'owner-s3',
        grade: 'Year 1',
        isUniversityStudent: true,
        schoolYearStartMonth: 1,
        at: '2025-03-03T00:00:00.000Z',
      }),
    );
    expect(await spec.rows(students, { id: 's3' })).toMatchObject([
      { grade: 'Year 1', is_university_student: true, school_year_start_month: 1, first_name: 'Sam' },
    ]);
    expect(await studentAccount(db.sql, 's3')).toEqual({ grade: 'Year 1', isUniversityStudent: true, schoolYearStartMonth: 1 });
    expect(await studentAccount(db.sql, 'nobody')).toBeNull();
  });

  it('a later SecondaryLoginSet renames the login: the new username replaces the old one', async () => {
    await spec.given(created('s4'), loginSet('s4', 'Kid.Four'));
    expect(await findSecondaryLogin(db.sql, 'kid.four')).toEqual({ studentId: 's4', userId: 'owner-s4' });
    await spec.given(loginSet('s4', 'kid.renamed'));
    expect(await spec.rows(students, { id: 's4' })).toMatchObject([{ secondary_username: 'kid.renamed', has_secondary_login: true }]);
    expect(await findSecondaryLogin(db.sql, 'Kid.Four')).toBeNull();
    expect(await findSecondaryLogin(db.sql, 'KID.RENAMED')).toEqual({ studentId: 's4', userId: 'owner-s4' });
    expect(await isUsernameTaken(db.sql, 'kid.four')).toBe(false);
    expect(await isUsernameTaken(db.sql, 'Kid.Renamed')).toBe(true);
    expect(await isUsernameTaken(db.sql, 'kid.renamed', { exceptStudentId: 's4' })).toBe(false);
  });

  it('a username one student gives up another takes in the same batch', async () => {
    await spec.given(created('s5'), created('s6'), loginSet('s5', 'shared.name'));
    // s6 is touched before s5 gives the name up: only the batch's final rows may meet the unique index.
    await spec.given(
      event('student-s6', 'StudentAccountUpdated', {
        studentId: 's6',
        userId: 'owner-s6',
        grade: 'Grade 12',
        isUniversityStudent: false,
        schoolYearStartMonth: 9,
        at: '2025-03-04T00:00:00.000Z',
      }),
      loginSet('s5', 'other.name'),
      loginSet('s6', 'shared.name'),
    );
    expect(spec.failures()).toEqual([]);
    expect((await spec.rows(students, { id: 's5' }))[0]?.secondary_username).toBe('other.name');
    expect((await spec.rows(students, { id: 's6' }))[0]?.secondary_username).toBe('shared.name');
  });

  it('erasure removes the profile and frees its login', async () => {
    await spec.given(created('s7'), loginSet('s7', 'kid.seven'));
    await spec.given(event('student-s7', 'StudentProfileErased', { studentId: 's7', userId: 'owner-s7', at: '2025-03-05T00:00:00.000Z' }));
    expect(await spec.rows(students, { id: 's7' })).toEqual([]);
    expect(await findSecondaryLogin(db.sql, 'kid.seven')).toBeNull();
    // A later event of the erased profile brings nothing back.
    await spec.given(loginSet('s7', 'kid.seven.again'));
    expect(await spec.rows(students, { id: 's7' })).toEqual([]);
  });

  it("answers a parent's and an account holder's student look-ups", async () => {
    await spec.given(
      created('s8', { userId: 'parent-1', parentId: 'parent-1', firstName: 'Zoe', at: '2025-03-06T00:00:00.000Z' }),
      created('s9', { userId: 'parent-1', parentId: 'parent-1', firstName: 'Ada', at: '2025-03-07T00:00:00.000Z' }),
      loginSet('s9', 'ada.view', 'parent-1'),
    );
    expect(await studentsOfParent(db.sql, 'parent-1')).toEqual([
      { id: 's9', firstName: 'Ada', lastName: 'Park', grade: 'Grade 10', hasSecondaryLogin: true, secondaryUsername: 'ada.view' },
      { id: 's8', firstName: 'Zoe', lastName: 'Park', grade: 'Grade 10', hasSecondaryLogin: false, secondaryUsername: null },
    ]);
    expect(await findOwnStudent(db.sql, 'parent-1', null)).toBe('s8');
    expect(await findOwnStudent(db.sql, 'parent-1', 's9')).toBe('s9');
    expect(await findOwnStudent(db.sql, 'parent-1', 's1')).toBeNull();
  });

  it('the current user reads the account with its student; a secondary login reads it view-only', async () => {
    await spec.given(
      event('user-acct', 'UserRegistered', {
        userId: 'acct',
        username: 'acct.holder',
        email: 'acct@example.com',
        passwordHash: null,
        role: 'student',
        firstName: 'Kai',
        lastName: 'Ito',
        phone: null,
        authProvider: 'google',
        googleId: 'g-acct',
        timezone: 'America/New_York',
        emailVerified: true,
        termsAcceptedAt: null,
        termsAcceptedIp: null,
        termsAcceptedVersion: null,
        parentId: null,
        registeredAt: '2025-03-08T00:00:00.000Z',
      }),
      created('s10', { userId: 'acct', grade: '', schoolYearStartMonth: null }),
      loginSet('s10', 'kai.view', 'acct'),
    );
    const own = await currentUser(db.sql, { userId: 'acct', role: 'student', studentId: null });
    expect(own).toMatchObject({
      id: 'acct',
      username: 'acct.holder',
      role: 'student',
      authProvider: 'google',
      emailVerified: true,
      termsAcceptedAt: null,
      createdAt: '2025-03-08T00:00:00.000Z',
      student: { id: 's10', grade: '', isUniversityStudent: false, schoolYearStartMonth: null, hasSecondaryLogin: true },
      viewOnly: false,
    });
    const secondary = await currentUser(db.sql, { userId: 'acct', role: 'student_secondary', studentId: 's10' });
    expect(secondary).toMatchObject({ role: 'student_secondary', viewOnly: true, student: { id: 's10' } });
    expect(await currentUser(db.sql, { userId: 'nobody', role: 'student', studentId: null })).toBeNull();
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    expect(live.students?.length).toBeGreaterThan(0);
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
