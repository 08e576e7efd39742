import { z } from 'zod';
import { gradeLevels } from './gradeLevelNames.ts';

/** The levels (gradeLevelNames.ts, zod-free for the public site's first load) and their schema. */
export * from './gradeLevelNames.ts';

export const gradeLevelSchema = z.enum(gradeLevels, { error: 'Please choose a grade level' });
