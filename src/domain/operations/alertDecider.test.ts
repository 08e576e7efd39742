import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import {
  ALERT_ALREADY_RESOLVED,
  ALERT_NOT_FOUND,
  alertDecider,
  RESOLUTION_NOTE_REQUIRED,
  RESOLUTION_NOTE_TOO_LONG,
} from './alertDecider.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const metadata = { now, actorId: 'admin-1', actorRole: 'admin' };
const resolve = (note: string, raised: { resolved: boolean } | null = { resolved: false }) => ({
  type: 'ResolveAlert' as const,
  data: { alertId: 'a1', note, raised },
  metadata,
});
const resolved = {
  type: 'AlertResolved' as const,
  data: { alertId: 'a1', note: 'Refunded by hand', resolvedBy: 'admin-1', at: now.toISOString() },
};

describe('resolving an alert', () => {
  const spec = deciderSpec(alertDecider);

  it('records who resolved it, when, and the note without its surrounding spaces', () => {
    spec.given([]).when(resolve('  Refunded by hand \n')).thenEvents([resolved]);
  });

  it('refuses an unknown alert, and one resolved already — by an admin or by the system', () => {
    spec.given([]).when(resolve('done', null)).thenThrows(ALERT_NOT_FOUND, 'not_found');
    spec.given([resolved]).when(resolve('again')).thenThrows(ALERT_ALREADY_RESOLVED, 'conflict');
    spec
      .given([])
      .when(resolve('again', { resolved: true }))
      .thenThrows(ALERT_ALREADY_RESOLVED, 'conflict');
  });

  it('asks for a note saying what was done, at most 2,000 characters', () => {
    spec.given([]).when(resolve('   ')).thenThrows(RESOLUTION_NOTE_REQUIRED, 'invalid');
    spec
      .given([])
      .when(resolve('x'.repeat(2001)))
      .thenThrows(RESOLUTION_NOTE_TOO_LONG, 'invalid');
    spec
      .given([])
      .when(resolve('x'.repeat(2000)))
      .thenEvents([{ ...resolved, data: { ...resolved.data, note: 'x'.repeat(2000) } }]);
  });
});
