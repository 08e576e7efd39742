import { z } from 'zod';
import { cleanName } from '../kit/nameText.ts';
import { gradeLevelSchema } from './gradeLevels.ts';

/**
 * The admin's subject form (POST /api/admin/subjects, PUT /api/admin/subjects/{id}), shared by
 * the UI and the server. (Text PostgreSQL cannot store is refused for every route by the HTTP
 * boundary's guard, and again before anything is appended.)
 */
const text = (label: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`) })
    .trim()
    .max(max, `${label} is too long`);

export const subjectFormSchema = z
  .object({
    name: text('Name', 200)
      .min(1, 'Name is required')
      .refine(...cleanName('Name')),
    description: text('Description', 2000).nullish(),
    category: text('Category', 100)
      .refine(...cleanName('Category'))
      .nullish(),
    gradeLevel: gradeLevelSchema,
  })
  .strict();

export type SubjectFormInput = z.input<typeof subjectFormSchema>;
export type SubjectFormValues = z.output<typeof subjectFormSchema>;
