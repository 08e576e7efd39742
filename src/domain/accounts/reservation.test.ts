import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { reservationDecider } from './reservation.ts';
import { studentDecider } from './studentProfile.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const at = now.toISOString();

describe('reservation decider', () => {
  const spec = deciderSpec(reservationDecider);
  it('reserves a free value, is idempotent for its holder and refuses anyone else', () => {
    spec
      .given([])
      .when({ type: 'Reserve', userId: 'a', takenMessage: 'Username already exists', now })
      .thenEvents([{ type: 'ValueReserved', data: { userId: 'a', at } }]);
    spec
      .given([{ type: 'ValueReserved', data: { userId: 'a', at } }])
      .when({ type: 'Reserve', userId: 'a', takenMessage: 'x', now })
      .thenNothing();
    spec
      .given([{ type: 'ValueReserved', data: { userId: 'a', at } }])
      .when({ type: 'Reserve', userId: 'b', takenMessage: 'Username already exists', now })
      .thenThrows('Username already exists', 409);
  });

  it('frees a value only for its holder, and lets it be reserved again', () => {
    const held = [{ type: 'ValueReserved' as const, data: { userId: 'a', at } }];
    spec.given(held).when({ type: 'Release', userId: 'b', now }).thenNothing();
    spec
      .given(held)
      .when({ type: 'Release', userId: 'a', now })
      .thenEvents([{ type: 'ValueReleased', data: { userId: 'a', at } }]);
    spec
      .given([...held, { type: 'ValueReleased', data: { userId: 'a', at } }])
      .when({ type: 'Reserve', userId: 'b', takenMessage: 'x', now })
      .thenEvents([{ type: 'ValueReserved', data: { userId: 'b', at } }]);
  });
});

describe('student profile decider', () => {
  const spec = deciderSpec(studentDecider);
  const created = {
    type: 'StudentProfileCreated' as const,
    data: {
      studentId: 's',
      userId: 'u',
      parentId: null,
      firstName: 'A',
      lastName: 'B',
      grade: 'Grade 9',
      isUniversityStudent: false,
      schoolYearStartMonth: null,
      at,
    },
  };
  it('sets a secondary login only on an existing, unerased profile', () => {
    spec
      .given([])
      .when({ type: 'SetSecondaryLogin', studentId: 's', secondaryUsername: 'v', secondaryPasswordHash: 'h', now })
      .thenThrows('Student not found', 404);
    spec
      .given([created, { type: 'StudentProfileErased', data: { studentId: 's', userId: 'u', at } }])
      .when({ type: 'SetSecondaryLogin', studentId: 's', secondaryUsername: 'v', secondaryPasswordHash: 'h', now })
      .thenThrows('Student not found', 404);
    spec
      .given([created])
      .when({ type: 'SetSecondaryLogin', studentId: 's', secondaryUsername: 'v', secondaryPasswordHash: 'h', now })
      .thenEvents([
        { type: 'SecondaryLoginSet', data: { studentId: 's', userId: 'u', secondaryUsername: 'v', secondaryPasswordHash: 'h', at } },
      ]);
  });
});
