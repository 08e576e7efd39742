import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { StudentEvent } from '../accounts/student.ts';
import { GRADE_TIER_NOT_ALLOWED, studentDecider } from '../accounts/studentDecider.ts';
import { packageTermsOf } from '../packages/packageDecider.ts';
import { catalogGradeTiers } from '../subjects/catalog.ts';
import { type GradeLevel, gradeLevels } from '../subjects/gradeLevels.ts';
import { type CatalogueFacts, PACKAGE_WRONG_LEVEL, priceFromCatalogue } from './checkoutCatalogue.ts';
import type { PurchaseStartedData } from './purchase.ts';
import { purchaseDecider } from './purchaseDecider.ts';

/**
 * Issue 23 §1, the whole matrix: every grade × package tier × subject level. A checkout passes
 * only when the package's tier is the subject's level (the purchase decider, from the catalogue's
 * streams) and the student's grade allows that tier (the enrolment claim, on the student's stream).
 */
const now = new Date('2026-11-27T12:00:00Z');
const at = now.toISOString();
const metadata = { now, actorId: 'u1', actorRole: 'student' };
const purchases = deciderSpec(purchaseDecider);
const students = deciderSpec(studentDecider);

const basePrice = Object.fromEntries(catalogGradeTiers.map((t) => [t.tierId, t.basePriceCents])) as Record<GradeLevel, number>;
const fourPack = (tier: GradeLevel) =>
  packageTermsOf({
    packageId: `pkg-${tier}`,
    gradeTierId: tier,
    gradeTierName: tier,
    basePriceCents: basePrice[tier],
    packageTypeId: 'weekly_1',
  });
const catalogueOf = (tier: GradeLevel, level: GradeLevel): CatalogueFacts => ({
  subjectId: `subject-${level}`,
  subject: { entry: { name: `Calculus (${level})`, description: null, category: 'Mathematics', gradeLevel: level }, active: true },
  package: fourPack(tier),
  promo: null,
});
/** The terms a checkout asks for: the package's own price (what the old checkout charged whatever the subject). */
const termsOf = (tier: GradeLevel, level: GradeLevel): Omit<PurchaseStartedData, 'at'> => ({
  purchaseId: 'p1',
  studentId: 's1',
  purchasedBy: 'u1',
  packageId: `pkg-${tier}`,
  subjectId: `subject-${level}`,
  sessionCount: 4,
  priceCents: fourPack(tier).totalPriceCents,
  promo: null,
  finalCents: fourPack(tier).totalPriceCents,
  paymentIntentId: 'pi_1',
  kind: 'purchase',
  courseId: null,
  checkoutSessionId: null,
});

const grades = ['Grade 6', 'Grade 9', 'Grade 10', 'Grade 11', 'Grade 12', 'University/College'];
/** Spec part 2 §5. */
const gradeAllows: Record<string, readonly GradeLevel[]> = {
  'Grade 6': gradeLevels,
  'Grade 9': gradeLevels,
  'Grade 10': gradeLevels,
  'Grade 11': ['grade_11_12', 'university'],
  'Grade 12': ['grade_11_12', 'university'],
  'University/College': ['university'],
};
const student = (grade: string): StudentEvent => ({
  type: 'StudentProfileCreated',
  data: {
    studentId: 's1',
    userId: 'u1',
    parentId: null,
    firstName: 'Ann',
    lastName: 'Lee',
    grade,
    isUniversityStudent: grade === 'University/College',
    schoolYearStartMonth: 9,
    at,
  },
});

describe('the tier × subject level × grade matrix', () => {
  for (const grade of grades)
    for (const tier of gradeLevels)
      for (const level of gradeLevels)
        it(`${grade}, a ${tier} package for a ${level} subject: ${tier === level && gradeAllows[grade]?.includes(tier) ? 'sold' : 'refused'}`, () => {
          const claim = {
            type: 'ClaimEnrollment' as const,
            data: { studentId: 's1', subjectId: `subject-${level}`, purchaseId: 'p1', gradeTierId: tier },
            metadata,
          };
          const start = {
            type: 'StartPurchase' as const,
            data: { terms: termsOf(tier, level), catalogue: catalogueOf(tier, level) },
            metadata,
          };
          if (gradeAllows[grade]?.includes(tier))
            students
              .given([student(grade)])
              .when(claim)
              .thenEvents([{ type: 'EnrollmentClaimed', data: { ...claim.data, at } }]);
          else
            students
              .given([student(grade)])
              .when(claim)
              .thenThrows(GRADE_TIER_NOT_ALLOWED, 'invalid');
          if (tier === level)
            purchases
              .given([])
              .when(start)
              .thenEvents([{ type: 'PurchaseStarted', data: { ...termsOf(tier, level), at } }]);
          else purchases.given([]).when(start).thenThrows(PACKAGE_WRONG_LEVEL, 'invalid');
        });

  it('prices the attack of issue 23 at the subject’s level: Calculus (University/College) is not sold at Grade 11-12 prices', () => {
    expect(() => priceFromCatalogue(catalogueOf('grade_11_12', 'university'))).toThrow(PACKAGE_WRONG_LEVEL);
    expect(priceFromCatalogue(catalogueOf('university', 'university'))).toMatchObject({ priceCents: 36_000, finalCents: 36_000 });
    expect(priceFromCatalogue(catalogueOf('grade_11_12', 'grade_11_12'))).toMatchObject({ priceCents: 30_000, finalCents: 30_000 });
  });

  it('applies the code’s terms to the catalogue price, never past zero', () => {
    const withCode = (discountType: 'percentage' | 'fixed_amount', discountValue: number) =>
      priceFromCatalogue({
        ...catalogueOf('university', 'university'),
        promo: { promoCodeId: 'c', terms: { discountType, discountValue } },
      });
    expect(withCode('percentage', 2500)).toMatchObject({
      priceCents: 36_000,
      promo: { promoCodeId: 'c', discountCents: 9_000 },
      finalCents: 27_000,
    });
    expect(withCode('fixed_amount', 50_000)).toMatchObject({ promo: { promoCodeId: 'c', discountCents: 36_000 }, finalCents: 0 });
  });
});
