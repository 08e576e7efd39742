import type { Projector } from '../runner/projector.ts';
import { payoutsProjector } from './payoutsProjector.ts';

/** The payouts feature's read models. */
export const payoutProjections: readonly Projector[] = [payoutsProjector];
