import type { Projector } from '../runner/projector.ts';
import { studentCoursesProjector } from './studentCoursesProjector.ts';

/** The courses feature's read models. */
export const courseProjections = [studentCoursesProjector] as const satisfies readonly Projector[];
