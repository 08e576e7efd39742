import { DomainError } from '../kit/decider.ts';
import { PACKAGE_NOT_FOUND, type PackageTerms } from '../packages/package.ts';
import type { PromoTerms } from '../promoCodes/promoCode.ts';
import { type PromoQuote, quoteWithPromo } from '../promoCodes/promoTerms.ts';
import type { GradeLevel } from '../subjects/gradeLevels.ts';
import type { SubjectState } from '../subjects/subject.ts';
import type { PurchaseStartedData } from './purchase.ts';

/**
 * What a checkout is priced from (issue 23 §1): the write model's catalogue at decision time, never
 * a read model nor the browser. The command layer reads the subject's and the package's streams
 * (and the promo code's, when one is applied) and hands them to the purchase decider, which
 * prices the purchase from them and refuses terms that do not follow.
 */
export interface CatalogueFacts {
  subjectId: string;
  /** The subject's stream (`subject-<id>`): whether it exists, is active, and its level. */
  subject: SubjectState;
  /** The package's stream (`package-<id>`): null when no such package was defined. */
  package: PackageTerms | null;
  /** The code applied and its terms, already found usable on its own stream; null without a code. */
  promo: { promoCodeId: string; terms: Pick<PromoTerms, 'discountType' | 'discountValue'> } | null;
}

export const SUBJECT_NOT_FOUND = 'Subject not found';
export const SUBJECT_NOT_OFFERED = 'This subject is no longer offered';
/** The package's grade tier is a price level: it must be the subject's own level (Calculus (University/College) is sold at University prices). */
export const PACKAGE_WRONG_LEVEL = "This package is not for this subject's level";
export const CATALOGUE_MISMATCH = 'The purchase does not match the catalogue';

/** The priced part of a purchase's terms. */
export type CataloguePrice = Pick<PurchaseStartedData, 'sessionCount' | 'priceCents' | 'promo' | 'finalCents'> & {
  gradeTierId: GradeLevel;
  quote: PromoQuote;
  /** The package as its stream defines it (name, sessions, total). */
  package: PackageTerms;
};

/** The subject exists and is offered; its level (the tier its packages must be of). */
export function offeredLevel(subject: SubjectState): GradeLevel {
  if (!subject.entry) throw new DomainError(SUBJECT_NOT_FOUND, 'not_found');
  if (!subject.active) throw new DomainError(SUBJECT_NOT_OFFERED, 'conflict');
  return subject.entry.gradeLevel;
}

/**
 * The purchase's price from the catalogue: the subject offered, the package defined and of the
 * subject's level, its total as the package records it, the code's discount on that total.
 * `wrongLevel` is the refusal when the tiers differ (a repurchase words it for its course).
 */
export function priceFromCatalogue(facts: CatalogueFacts, wrongLevel = PACKAGE_WRONG_LEVEL): CataloguePrice {
  const level = offeredLevel(facts.subject);
  const pkg = facts.package;
  if (!pkg) throw new DomainError(PACKAGE_NOT_FOUND, 'not_found');
  if (pkg.gradeTierId !== level) throw new DomainError(wrongLevel, 'invalid');
  const quote = facts.promo
    ? quoteWithPromo(facts.promo.terms, pkg.totalPriceCents)
    : { originalCents: pkg.totalPriceCents, discountCents: 0, finalCents: pkg.totalPriceCents };
  return {
    gradeTierId: pkg.gradeTierId,
    package: pkg,
    sessionCount: pkg.sessionCount,
    priceCents: quote.originalCents,
    promo: facts.promo ? { promoCodeId: facts.promo.promoCodeId, discountCents: quote.discountCents } : null,
    finalCents: quote.finalCents,
    quote,
  };
}

/** The terms a purchase starts with must be the catalogue's, item for item: anything else is refused. */
export function checkAgainstCatalogue(
  terms: Pick<PurchaseStartedData, 'subjectId' | 'packageId' | 'sessionCount' | 'priceCents' | 'promo' | 'finalCents'>,
  facts: CatalogueFacts,
  wrongLevel = PACKAGE_WRONG_LEVEL,
): void {
  const price = priceFromCatalogue(facts, wrongLevel);
  const same =
    facts.subjectId === terms.subjectId &&
    facts.package?.packageId === terms.packageId &&
    price.sessionCount === terms.sessionCount &&
    price.priceCents === terms.priceCents &&
    price.finalCents === terms.finalCents &&
    (price.promo?.promoCodeId ?? null) === (terms.promo?.promoCodeId ?? null) &&
    (price.promo?.discountCents ?? 0) === (terms.promo?.discountCents ?? 0);
  if (!same) throw new DomainError(CATALOGUE_MISMATCH, 'conflict');
}
