import type { TutorListEntry } from '@shared/tutors/tutorApi.ts';

/** Spec part 2 §2: the search matches first plus last name, case-insensitive, as a substring. */
export function matchesSearch(tutor: Pick<TutorListEntry, 'user'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return !needle || `${tutor.user.firstName} ${tutor.user.lastName}`.toLowerCase().includes(needle);
}
