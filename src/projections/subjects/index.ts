import type { Projector } from '../runner/projector.ts';
import { gradeTiersProjector } from './gradeTiersProjector.ts';
import { subjectsProjector } from './subjectsProjector.ts';

/** The subjects feature's read models. */
export const subjectProjections = [subjectsProjector, gradeTiersProjector] as const satisfies readonly Projector[];
