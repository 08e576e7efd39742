import { evolveStudent, initialStudentState, studentStreamId } from '../../domain/accounts/student.ts';
import { evolveTutorApplication, initialTutorApplicationState, tutorApplicationStreamId } from '../../domain/accounts/tutorApplication.ts';
import { evolveUser, initialUserState, userStreamId } from '../../domain/accounts/user.ts';
import { courseStreamId, evolveCourse, initialCourseState } from '../../domain/courses/course.ts';
import type { DomainEvent } from '../../domain/kit/decider.ts';
import { type EntityKind, entityKindLabels } from '../../domain/operations/entityKinds.ts';
import {
  evolve as evolvePayoutPeriod,
  initialState as initialPayoutPeriodState,
  payoutPeriodStreamId,
} from '../../domain/payouts/payoutPeriod.ts';
import { evolvePromoCode, initialPromoCodeState, promoCodeStreamId } from '../../domain/promoCodes/promoCode.ts';
import { evolvePurchase, initialPurchaseState, purchaseStreamId } from '../../domain/purchases/purchase.ts';
import { evolveSession, initialSessionState, sessionStreamId } from '../../domain/sessions/session.ts';
import { evolveTutor, initialTutorState, tutorStreamId } from '../../domain/tutors/tutor.ts';

/** One entity kind as history sees it: its stream and the fold its own aggregate uses. */
export interface EntityModel {
  label: string;
  streamIdOf(id: string): string;
  initialState: unknown;
  evolve(state: unknown, event: DomainEvent): unknown;
}

function entity<S, E extends DomainEvent>(
  streamIdOf: (id: string) => string,
  initialState: S,
  evolve: (state: S, event: E) => S,
  label: string,
): EntityModel {
  return { label, streamIdOf, initialState, evolve: evolve as (state: unknown, event: DomainEvent) => unknown };
}

/**
 * Every entity kind whose history the console opens, one line each. A kind missing here (its
 * aggregate does not exist yet) answers 404.
 */
export const entityModels: Partial<Record<EntityKind, EntityModel>> = {
  user: entity(userStreamId, initialUserState, evolveUser, entityKindLabels.user),
  student: entity(studentStreamId, initialStudentState, evolveStudent, entityKindLabels.student),
  tutor: entity(tutorStreamId, initialTutorState, evolveTutor, entityKindLabels.tutor),
  application: entity(tutorApplicationStreamId, initialTutorApplicationState, evolveTutorApplication, entityKindLabels.application),
  course: entity(courseStreamId, initialCourseState, evolveCourse, entityKindLabels.course),
  purchase: entity(purchaseStreamId, initialPurchaseState, evolvePurchase, entityKindLabels.purchase),
  session: entity(sessionStreamId, initialSessionState, evolveSession, entityKindLabels.session),
  promo: entity(promoCodeStreamId, initialPromoCodeState, evolvePromoCode, entityKindLabels.promo),
  payoutPeriod: entity(payoutPeriodStreamId, initialPayoutPeriodState, evolvePayoutPeriod, entityKindLabels.payoutPeriod),
};
