import type { Projector } from '../runner/projector.ts';
import { calendarFeedsProjector } from './calendarFeedsProjector.ts';
import { sessionsProjector } from './sessionsProjector.ts';

/** The sessions feature's read models. */
export const sessionProjections = [sessionsProjector, calendarFeedsProjector] as const satisfies readonly Projector[];
