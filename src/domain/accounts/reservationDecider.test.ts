import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { reservationEvents } from './reservation.ts';
import { reservationDecider } from './reservationDecider.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now };
const spec = deciderSpec(reservationDecider);
const reserved = (holderId: string) => ({ type: 'ValueReserved' as const, data: { holderId, at } });

describe('reservation decider', () => {
  it('reserves a free value, is idempotent for its holder and refuses anyone else', () => {
    spec
      .given([])
      .when({ type: 'Reserve', data: { holderId: 'user-a', takenMessage: 'Username already exists' }, metadata })
      .thenEvents([reserved('user-a')]);
    spec
      .given([reserved('user-a')])
      .when({ type: 'Reserve', data: { holderId: 'user-a', takenMessage: 'x' }, metadata })
      .thenNothing();
    spec
      .given([reserved('user-a')])
      .when({ type: 'Reserve', data: { holderId: 'user-b', takenMessage: 'Username already exists' }, metadata })
      .thenThrows('Username already exists', 'conflict');
  });

  it("refuses a secondary login the name an account holds, even the same person's", () => {
    spec
      .given([reserved('user-a')])
      .when({ type: 'Reserve', data: { holderId: 'secondaryLogin-s', takenMessage: 'Username already exists' }, metadata })
      .thenThrows('Username already exists', 'conflict');
  });

  it('frees a value only for its holder, and lets it be reserved again', () => {
    spec
      .given([reserved('user-a')])
      .when({ type: 'Release', data: { holderId: 'user-b' }, metadata })
      .thenNothing();
    spec
      .given([reserved('user-a')])
      .when({ type: 'Release', data: { holderId: 'user-a' }, metadata })
      .thenEvents([{ type: 'ValueReleased', data: { holderId: 'user-a', at } }]);
    spec
      .given([reserved('user-a'), { type: 'ValueReleased', data: { holderId: 'user-a', at } }])
      .when({ type: 'Reserve', data: { holderId: 'user-b', takenMessage: 'x' }, metadata })
      .thenEvents([reserved('user-b')]);
  });

  it('reads reservations recorded before the shared namespace as held by the account', () => {
    expect(reservationEvents.ValueReserved.schema.parse({ userId: 'a', at })).toEqual({ holderId: 'user-a', at });
  });
});
