import type { Projector } from '../runner/projector.ts';
import { noticesProjector } from './noticesProjector.ts';

/** The notices feature's read models: the bell's list. */
export const noticeProjections = [noticesProjector] as const satisfies readonly Projector[];
