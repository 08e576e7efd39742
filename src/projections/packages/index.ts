import type { Projector } from '../runner/projector.ts';
import { packagesProjector } from './packagesProjector.ts';

/** The packages feature's read models. */
export const packageProjections: readonly Projector[] = [packagesProjector];
