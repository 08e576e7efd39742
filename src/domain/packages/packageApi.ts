import { z } from 'zod';
import { gradeLevels } from '../subjects/gradeLevels.ts';

/** The packages API's answers, shared by the server and the UI (`@shared/packages/packageApi.ts`). */

/** GET /api/packages entries and GET /api/packages/{id} (spec part 2 §3 "Package"): money in dollars (CAD). */
export const packageSchema = z.object({
  id: z.string(),
  name: z.string(),
  sessionCount: z.number().int(),
  totalPrice: z.number(),
  gradeTier: z.object({ id: z.enum(gradeLevels), name: z.string() }),
});
export type Package = z.output<typeof packageSchema>;

/** GET /api/subjects/with-tutors entries: active subjects at least one listed tutor teaches. */
export const subjectWithTutorsSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  gradeLevel: z.enum(gradeLevels),
});
