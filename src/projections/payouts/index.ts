import type { Projector } from '../runner/projector.ts';
import { payoutsProjector } from './payoutsProjector.ts';

/** The payouts feature's read models. */
export const payoutProjections = [payoutsProjector] as const satisfies readonly Projector[];
