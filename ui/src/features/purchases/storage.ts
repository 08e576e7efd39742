/**
 * The browser-side state of the purchase flow (spec part 2 §3): the pending enrollment in local
 * storage (Add Course → checkout → tutor selection → first-session step) and the payment metadata
 * in session storage (checkout only). Nothing here is trusted by the server: it recomputes prices
 * and checks every id.
 */

export const PENDING_ENROLLMENT_KEY = 'pendingEnrollment';
export const PAYMENT_METADATA_KEY = 'paymentMetadata';

export interface PendingEnrollment {
  packageId: string;
  studentId: string;
  subjectId: string;
  tutorId?: string;
  purchaseId?: string;
  /** What was paid (dollars), known once the payment (or the free purchase) succeeded: "Total paid". */
  amountPaid?: number;
  subjectInfo: { name: string };
  packageInfo: { name: string; sessionCount: number; totalPrice: number };
}

export interface PaymentMetadata {
  packageId: string;
  subjectId: string;
  studentId: string;
  amount: number;
  promoCodeId?: string;
  originalAmount?: number;
  discountAmount?: number;
  finalAmount?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isPendingEnrollment(value: unknown): value is PendingEnrollment {
  if (!isObject(value)) return false;
  const { packageId, studentId, subjectId, subjectInfo, packageInfo } = value;
  return (
    typeof packageId === 'string' &&
    typeof studentId === 'string' &&
    typeof subjectId === 'string' &&
    isObject(subjectInfo) &&
    typeof subjectInfo.name === 'string' &&
    isObject(packageInfo) &&
    typeof packageInfo.name === 'string' &&
    typeof packageInfo.sessionCount === 'number' &&
    typeof packageInfo.totalPrice === 'number'
  );
}

function readJson(storage: Storage, key: string): unknown {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

export function readPendingEnrollment(): PendingEnrollment | null {
  const value = readJson(localStorage, PENDING_ENROLLMENT_KEY);
  return isPendingEnrollment(value) ? value : null;
}

export function savePendingEnrollment(enrollment: PendingEnrollment): void {
  localStorage.setItem(PENDING_ENROLLMENT_KEY, JSON.stringify(enrollment));
}

export function clearPendingEnrollment(): void {
  localStorage.removeItem(PENDING_ENROLLMENT_KEY);
}

export function savePaymentMetadata(metadata: PaymentMetadata): void {
  sessionStorage.setItem(PAYMENT_METADATA_KEY, JSON.stringify(metadata));
}

export function clearPaymentMetadata(): void {
  sessionStorage.removeItem(PAYMENT_METADATA_KEY);
}

/** "$123.45" (CAD, 2 decimals at checkout). */
export const dollars = (amount: number) => `$${amount.toFixed(2)}`;
