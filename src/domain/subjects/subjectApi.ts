import { z } from 'zod';
import { gradeLevels } from './gradeLevels.ts';

/**
 * The subjects API's answers, shared by the server and the UI (`@shared/subjects/subjectApi.ts`).
 */

/** GET /api/subjects entries and GET /api/subjects/{id} (spec part 2 §3 "Subject"). */
export const subjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  gradeLevel: z.enum(gradeLevels),
});
export type Subject = z.output<typeof subjectSchema>;

/** The admin's view: deactivated subjects too. */
export const adminSubjectSchema = subjectSchema.extend({ isActive: z.boolean() });

/** GET /api/gradetiers entries: the base price per session in dollars. */
export const gradeTierSchema = z.object({ id: z.enum(gradeLevels), name: z.string(), basePrice: z.number() });
