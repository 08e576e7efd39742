import { courseEvents } from './course.ts';

/** Every event type of the courses feature (a student's course and its credit ledger). */
export const courseFeatureEvents = { ...courseEvents };
