/** Spec part 2 §9: after the first check, up to 10 more at 1-second intervals. */
export const VERIFY_RETRIES = 10;
export const VERIFY_INTERVAL_MS = 1000;
/** Spec part 2 §4: the pause before going back to the dashboard (and before reloading after a lost session). */
export const RETURN_DELAY_MS = 2000;

/**
 * Checkout's repurchase return (the hosted checkout's success and cancel URLs):
 * `?repurchase=true&session_id=…`, or `?repurchase=true&cancelled=true&purchase=…`; null for any other visit.
 * A success URL whose placeholder was never filled in counts as no session.
 */
export function repurchaseReturnOf(search: string): { sessionId: string | null; cancelled: boolean; purchaseId: string | null } | null {
  const params = new URLSearchParams(search);
  if (params.get('repurchase') !== 'true') return null;
  const sessionId = params.get('session_id');
  return {
    sessionId: sessionId && sessionId !== '{CHECKOUT_SESSION_ID}' ? sessionId : null,
    cancelled: params.get('cancelled') === 'true',
    /** The cancel URL names the repurchase to give up. */
    purchaseId: params.get('purchase') || null,
  };
}

/** The HTTP status of an error thrown by the API client (`"<status>: <body>"`), 0 when none. */
export const statusOf = (error: unknown) => (error instanceof Error ? Number(/^(\d{3}):/.exec(error.message)?.[1] ?? 0) : 0);

/**
 * Checkout opened from a link (spec part 2 §2): `?package=…&subject=…&student=…` or the same as
 * `package_id`, `subject_id`, `student_id`. Ours are ids (not the spec's integers); checkout needs
 * the package, the student and the subject of the course; null when one is missing.
 */
export function checkoutEntryOf(search: string): { packageId: string; subjectId: string; studentId: string } | null {
  const params = new URLSearchParams(search);
  const value = (name: string) => (params.get(name) ?? params.get(`${name}_id`) ?? '').trim().slice(0, 100) || null;
  const packageId = value('package');
  const subjectId = value('subject');
  const studentId = value('student');
  return packageId && subjectId && studentId ? { packageId, subjectId, studentId } : null;
}
