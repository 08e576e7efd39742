/**
 * The three levels of spec part 1 §1. A level's id is also its grade tier's id (spec part 2 §3:
 * a tutor's qualification is one of these, `grade_10_under` by default). Pure, shared with the UI;
 * without zod, so the public site's first load (pricing, the subject catalogue) does not carry it.
 * gradeLevels.ts adds the schema.
 */
export const gradeLevels = ['grade_10_under', 'grade_11_12', 'university'] as const;
export type GradeLevel = (typeof gradeLevels)[number];

export const DEFAULT_GRADE_LEVEL: GradeLevel = 'grade_10_under';

export const gradeLevelLabels: Record<GradeLevel, string> = {
  grade_10_under: 'Grade 10 & Under',
  grade_11_12: 'Grade 11-12',
  university: 'University',
};

/** Lower levels first: the order of lists and of comparisons. */
export const gradeLevelRank = (level: GradeLevel): number => gradeLevels.indexOf(level);

/** A subject name as recorded: surrounding space dropped, inner runs of space collapsed. */
export const tidySubjectName = (name: string): string => name.trim().replace(/\s+/g, ' ');

/** A subject name as compared for uniqueness and for the qualification mapping: tidied, Unicode NFC, case ignored. */
export const normalizeSubjectName = (name: string): string => tidySubjectName(name.normalize('NFC')).toLowerCase();
