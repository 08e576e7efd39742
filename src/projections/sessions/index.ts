import type { Projector } from '../runner/projector.ts';
import { sessionsProjector } from './sessionsProjector.ts';

/** The sessions feature's read models. */
export const sessionProjections: readonly Projector[] = [sessionsProjector];
