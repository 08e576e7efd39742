import type { Projector } from '../runner/projector.ts';
import { promoCodesProjector, promoRedemptionsProjector } from './promoCodesProjector.ts';

/** The promo codes feature's read models. */
export const promoCodeProjections = [promoCodesProjector, promoRedemptionsProjector] as const satisfies readonly Projector[];
