import { describe, expect, it } from 'vitest';
import { stateDiff } from './stateDiff.ts';

describe('stateDiff', () => {
  it('lists the leaves an event changed, added and removed, by dotted path', () => {
    const before = { status: 'scheduled', start: '10:00', booked: { tutorId: 't1', notes: 'a' }, claims: { p1: { at: 1 } }, tags: [1] };
    const after = { status: 'scheduled', start: '14:00', booked: { tutorId: 't1', notes: null }, claims: {}, tags: [1, 2], end: '15:00' };
    expect(stateDiff(before, after)).toEqual([
      { path: 'start', before: '"10:00"', after: '"14:00"' },
      { path: 'booked.notes', before: '"a"', after: 'null' },
      { path: 'claims', before: null, after: '{}' },
      { path: 'tags', before: '[1]', after: '[1,2]' },
      { path: 'end', before: null, after: '"15:00"' },
      { path: 'claims.p1.at', before: '1', after: null },
    ]);
  });

  it('finds nothing when the state is unchanged, and everything when it starts from nothing', () => {
    expect(stateDiff({ a: { b: 1 } }, { a: { b: 1 } })).toEqual([]);
    expect(stateDiff(null, { a: 1 })).toEqual([{ path: 'a', before: null, after: '1' }]);
    expect(stateDiff({ booked: null }, { booked: { id: 's1' } })).toEqual([{ path: 'booked.id', before: null, after: '"s1"' }]);
  });
});
