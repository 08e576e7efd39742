import type { TutorListEntry } from '@shared/tutors/tutorApi.ts';
import { describe, expect, it } from 'vitest';
import { matchesSearch } from './tutorSearch.ts';

const tutor = (firstName: string, lastName: string, subjects: string[] = []): TutorListEntry => ({
  id: `${firstName}-${lastName}`,
  user: { firstName, lastName, profileImage: null },
  rating: null,
  totalSessions: 0,
  bio: null,
  subjects: subjects.map((name) => ({ id: name, name })),
  experience: null,
  reviewCount: 0,
});

describe('tutor search (spec part 2 §2: first plus last name, case-insensitive, substring; and the specialization it promises)', () => {
  it('matches any part of the full name whatever the case', () => {
    expect(matchesSearch(tutor('Maya', 'Okafor'), 'maya')).toBe(true);
    expect(matchesSearch(tutor('Maya', 'Okafor'), 'A OKA')).toBe(true);
    expect(matchesSearch(tutor('Maya', 'Okafor'), '  fOr ')).toBe(true);
  });
  it('an empty search keeps everyone; another name is left out', () => {
    expect(matchesSearch(tutor('Daniel', 'Reyes'), '')).toBe(true);
    expect(matchesSearch(tutor('Daniel', 'Reyes'), 'maya')).toBe(false);
  });
  it('matches a subject the tutor teaches (the specialization the search box promises), not one they do not', () => {
    const maya = tutor('Maya', 'Okafor', ['Calculus (University/College)', 'Statistics (University/College)']);
    expect(matchesSearch(maya, 'statist')).toBe(true);
    expect(matchesSearch(maya, 'CALCULUS')).toBe(true);
    expect(matchesSearch(maya, 'chemistry')).toBe(false);
  });
});
