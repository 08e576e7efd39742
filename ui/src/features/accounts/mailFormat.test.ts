import { describe, expect, it } from 'vitest';
import { describeType } from './mailFormat.ts';

describe('attachment types in the dev mailbox', () => {
  it('name the type and a calendar file’s method', () => {
    expect(describeType('text/calendar; charset=utf-8; method=REQUEST')).toEqual({ type: 'text/calendar', method: 'REQUEST' });
    expect(describeType('text/calendar;METHOD="cancel"')).toEqual({ type: 'text/calendar', method: 'CANCEL' });
    expect(describeType('text/plain')).toEqual({ type: 'text/plain', method: null });
    expect(describeType('application/pdf; name=report.pdf')).toEqual({ type: 'application/pdf', method: null });
  });
});
