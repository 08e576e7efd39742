import { describe, expect, it } from 'vitest';
import { checkoutEntryOf, repurchaseReturnOf, statusOf } from './returnUrl.ts';

describe('the repurchase return on /checkout', () => {
  it('reads the session of a paid return and a cancelled return', () => {
    expect(repurchaseReturnOf('?repurchase=true&session_id=cs_test_1')).toEqual({
      sessionId: 'cs_test_1',
      cancelled: false,
      purchaseId: null,
    });
    expect(repurchaseReturnOf('?repurchase=true&session_id=free_abc')).toEqual({
      sessionId: 'free_abc',
      cancelled: false,
      purchaseId: null,
    });
    expect(repurchaseReturnOf('?repurchase=true&cancelled=true&purchase=p-1')).toEqual({
      sessionId: null,
      cancelled: true,
      purchaseId: 'p-1',
    });
  });
  it('is no repurchase return without repurchase=true; an unfilled placeholder is no session', () => {
    expect(repurchaseReturnOf('')).toBeNull();
    expect(repurchaseReturnOf('?session_id=cs_1')).toBeNull();
    expect(repurchaseReturnOf('?repurchase=true&session_id={CHECKOUT_SESSION_ID}')).toEqual({
      sessionId: null,
      cancelled: false,
      purchaseId: null,
    });
  });
  it('reads the status of the API client’s errors', () => {
    expect(statusOf(new Error('401: {"message":"Not signed in"}'))).toBe(401);
    expect(statusOf(new Error('network down'))).toBe(0);
    expect(statusOf('x')).toBe(0);
  });
});

describe('checkout opened from a link', () => {
  it('takes package, subject and student, with or without _id', () => {
    expect(checkoutEntryOf('?package=p1&subject=s1&student=st1')).toEqual({ packageId: 'p1', subjectId: 's1', studentId: 'st1' });
    expect(checkoutEntryOf('?package_id=p1&subject_id=s1&student_id=st1')).toEqual({ packageId: 'p1', subjectId: 's1', studentId: 'st1' });
  });
  it('needs all three', () => {
    expect(checkoutEntryOf('?package=p1&student=st1')).toBeNull();
    expect(checkoutEntryOf('?package=&subject=s1&student=st1')).toBeNull();
    expect(checkoutEntryOf('')).toBeNull();
  });
});
