import type { Projector } from '../runner/projector.ts';
import { tutorsProjector } from './tutorsProjector.ts';

/** The tutors feature's read models. */
export const tutorProjections = [tutorsProjector] as const satisfies readonly Projector[];
