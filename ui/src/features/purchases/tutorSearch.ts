import type { TutorListEntry } from '@shared/tutors/tutorApi.ts';

/**
 * Spec part 2 §2: the search matches first plus last name, case-insensitive, as a substring. Its
 * placeholder promises "name or specialization", so the name of a subject the tutor teaches
 * matches too.
 */
export function matchesSearch(tutor: Pick<TutorListEntry, 'user' | 'subjects'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  if (`${tutor.user.firstName} ${tutor.user.lastName}`.toLowerCase().includes(needle)) return true;
  return tutor.subjects.some((subject) => subject.name.toLowerCase().includes(needle));
}
