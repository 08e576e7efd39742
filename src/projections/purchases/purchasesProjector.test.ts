import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { studentCoursesProjector } from '../courses/studentCoursesProjector.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { purchasesProjector } from './purchasesProjector.ts';
import { purchasesOfStudent, stalePendingPurchases } from './queries.ts';

const at = '2026-11-23T12:00:00.000Z';
const started = (purchaseId: string, extra: Record<string, unknown> = {}) => ({
  purchaseId,
  studentId: 's1',
  purchasedBy: 'u1',
  packageId: 'pkg',
  subjectId: 'math',
  sessionCount: 8,
  priceCents: 57_000,
  promo: { promoCodeId: 'promo', discountCents: 5_700 },
  finalCents: 51_300,
  paymentIntentId: `pi_${purchaseId}`,
  kind: 'purchase' as const,
  courseId: null,
  checkoutSessionId: null,
  at,
  ...extra,
});

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('purchases, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('purchases');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [purchasesProjector, studentCoursesProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('purchases are pending, then completed or failed; listed per student, money in dollars; stale pending ones found', async () => {
    await spec.given(
      event('purchase-p1', 'PurchaseStarted', started('p1')),
      event('purchase-p1', 'PurchaseCompleted', { purchaseId: 'p1', paymentIntentId: 'pi_p1', kind: 'purchase', at }),
      event('purchase-p2', 'PurchaseStarted', started('p2', { promo: null, finalCents: 57_000 })),
      event('purchase-p2', 'PurchaseFailed', { purchaseId: 'p2', reason: 'card_declined', message: 'Your card was declined.', at }),
      event('purchase-p3', 'PurchaseStarted', started('p3', { studentId: 's2' })),
    );
    const list = await purchasesOfStudent(db.sql, 's1');
    expect(list.map((p) => [p.id, p.status]).sort()).toEqual([
      ['p1', 'completed'],
      ['p2', 'failed'],
    ]);
    expect(list.find((p) => p.id === 'p1')).toMatchObject({
      totalPrice: 570,
      discountAmount: 57,
      finalAmount: 513,
      promoCodeId: 'promo',
      sessionCount: 8,
      subjectId: 'math',
    });
    expect(await stalePendingPurchases(db.sql, new Date('2026-11-24T00:00:00Z'))).toEqual([{ purchaseId: 'p3', paymentIntentId: 'pi_p3' }]);
    expect(await stalePendingPurchases(db.sql, new Date(at))).toEqual([]);
  });

  it('a refund: the purchase reads refunded with its amount and reason; the course loses the removed credits (and gets restored ones back)', async () => {
    const courseId = 'course-r1';
    await spec.given(
      event('purchase-r1', 'PurchaseStarted', started('r1', { studentId: 's9' })),
      event('purchase-r1', 'PurchaseCompleted', { purchaseId: 'r1', paymentIntentId: 'pi_r1', kind: 'purchase', at }),
      event(`course-${courseId}`, 'CourseEnrolled', {
        courseId,
        studentId: 's9',
        subjectId: 'math',
        packageId: 'pkg',
        purchaseId: 'r1',
        credits: 8,
        at,
      }),
      event(`course-${courseId}`, 'CourseCreditsRemoved', { courseId, purchaseId: 'r1', credits: 8, at }),
      event(`course-${courseId}`, 'CourseCreditsRestored', { courseId, purchaseId: 'r1', credits: 8, at }),
      event(`course-${courseId}`, 'CourseCreditsRemoved', { courseId, purchaseId: 'r1', credits: 8, at }),
      event('purchase-r1', 'PurchaseRefunded', {
        purchaseId: 'r1',
        attempt: 2,
        amountCents: 51_300,
        creditsRemoved: 8,
        reason: 'Moved',
        refundId: 're_1',
        refundedBy: 'admin-1',
        at,
      }),
    );
    const [purchase] = await db.sql`
      SELECT status, final_cents, refunded_cents, refunded_credits, refund_reason FROM purchases WHERE id = 'r1'`;
    expect(purchase).toEqual({
      status: 'refunded',
      final_cents: 51_300,
      refunded_cents: 51_300,
      refunded_credits: 8,
      refund_reason: 'Moved',
    });
    expect((await purchasesOfStudent(db.sql, 's9'))[0]).toMatchObject({ status: 'refunded', sessionsRemaining: 0 });
    const [course] = await db.sql<{ total_sessions: number; sessions_remaining: number }[]>`
      SELECT total_sessions, sessions_remaining FROM student_courses WHERE id = ${courseId}`;
    expect(course).toEqual({ total_sessions: 0, sessions_remaining: 0 });
  });
});
