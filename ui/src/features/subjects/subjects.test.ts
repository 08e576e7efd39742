import { describe, expect, it } from 'vitest';
import { allFigures, subjectFigures, subjects } from './subjects.ts';

const stats = {
  subjects: [
    { subjectId: 'c12', name: 'Calculus (Grade 11-12)', category: 'Mathematics', gradeLevel: 'grade_11_12', tutorIds: ['maya', 'omar'] },
    { subjectId: 'cu', name: 'Calculus (University/College)', category: 'Mathematics', gradeLevel: 'university', tutorIds: ['maya'] },
    { subjectId: 'p12', name: 'Physics (Grade 11-12)', category: 'Science', gradeLevel: 'grade_11_12', tutorIds: ['ana'] },
    { subjectId: 'pc', name: 'Physical Education', category: null, gradeLevel: 'grade_11_12', tutorIds: ['zed'] },
    { subjectId: 'f', name: 'Finance (University/College)', category: 'Business', gradeLevel: 'university', tutorIds: [] },
  ],
  tutors: [
    { tutorId: 'maya', reviewCount: 2, ratingTotal: 10 },
    { tutorId: 'omar', reviewCount: 2, ratingTotal: 7 },
    { tutorId: 'ana', reviewCount: 1, ratingTotal: 5 },
    { tutorId: 'zed', reviewCount: 9, ratingTotal: 9 },
  ],
};
const page = (id: string) => subjects.find((s) => s.id === id) as (typeof subjects)[number];

describe('the Subjects page figures come from the catalogue (issue 24)', () => {
  it('counts each listed tutor once across a subject’s levels and averages their reviews to one decimal', () => {
    expect(subjectFigures(page('mathematics'), stats)).toEqual({ tutorCount: 2, reviewCount: 4, rating: 4.3 });
  });
  it('says "New" (null) under three reviews, and matches courses by their name, not a prefix of another word', () => {
    expect(subjectFigures(page('physics'), stats)).toEqual({ tutorCount: 1, reviewCount: 1, rating: null });
  });
  it('a subject no tutor teaches has no tutors and no rating', () => {
    expect(subjectFigures(page('finance'), stats)).toEqual({ tutorCount: 0, reviewCount: 0, rating: null });
    expect(subjectFigures(page('biology'), stats).tutorCount).toBe(0);
  });
  it('the page’s total counts every tutor of its subjects once', () => {
    expect(allFigures(subjects, stats).tutorCount).toBe(3);
  });
});
