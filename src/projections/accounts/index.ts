import type { Projector } from '../runner/projector.ts';
import { studentsProjector } from './studentsProjector.ts';
import { tutorApplicationsProjector } from './tutorApplicationsProjector.ts';
import { usersProjector } from './usersProjector.ts';

/** The accounts feature's read models. */
export const accountProjections = [usersProjector, studentsProjector, tutorApplicationsProjector] as const satisfies readonly Projector[];
