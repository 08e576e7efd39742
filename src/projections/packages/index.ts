import type { Projector } from '../runner/projector.ts';
import { packagesProjector } from './packagesProjector.ts';

/** The packages feature's read models. */
export const packageProjections = [packagesProjector] as const satisfies readonly Projector[];
