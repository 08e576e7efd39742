import type { Projector } from '../runner/projector.ts';
import { tutorReviewsProjector } from './reviewsProjector.ts';

/** The reviews feature's read models. */
export const reviewProjections = [tutorReviewsProjector] as const satisfies readonly Projector[];
