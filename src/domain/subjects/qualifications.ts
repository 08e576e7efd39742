import { DEFAULT_GRADE_LEVEL, type GradeLevel, normalizeSubjectName } from './gradeLevelNames.ts';

/**
 * The qualification policy of spec part 2 §4: which level a subject's name implies, and which
 * lower-level subjects choosing a subject also selects. Pure, over plain data, shared by the UI's
 * subject editor (`@shared/subjects/qualifications.ts`) and the server that saves a tutor's
 * qualifications. Names are compared as `normalizeSubjectName` does (case and spacing ignored).
 */

/** The toast the subject editor shows when a choice selected others. */
export const AUTO_SELECTED_TITLE = 'Courses auto-selected';
export const AUTO_SELECTED_MESSAGE = 'University courses automatically qualify you to teach high school level subjects in the same area.';

/**
 * The level a subject's name implies: "University" gives university; "Grade 11-12" or
 * "Advanced Functions" gives grade_11_12; anything else grade_10_under (case ignored).
 */
export function levelOfSubjectName(name: string): GradeLevel {
  const n = name.toLowerCase();
  if (n.includes('university')) return 'university';
  if (n.includes('grade 11-12') || n.includes('advanced functions')) return 'grade_11_12';
  return 'grade_10_under';
}

const ladder = (area: string, levels: readonly ('University/College' | 'Grade 11-12')[]): [string, readonly string[]][] =>
  levels.map((level) => [
    `${area} (${level})`,
    level === 'University/College' ? [`${area} (Grade 11-12)`, `${area} (Grade 10 & Under)`] : [`${area} (Grade 10 & Under)`],
  ]);

/**
 * Choosing a subject (the key) also selects its lower-level equivalents (the values): each
 * university subject of an area, and English (Grade 11-12). Spec part 2 §4 names the calculus
 * entry and the areas; the other entries follow the catalogue's names (`catalog.ts`).
 */
export const qualificationMapping: Readonly<Record<string, readonly string[]>> = Object.fromEntries<readonly string[]>([
  ['Calculus (University/College)', ['Calculus (Grade 11-12)', 'Advanced Functions', 'Functions', 'Math (Grade 10 & Under)']],
  ['Linear Algebra (University/College)', ['Advanced Functions', 'Functions', 'Math (Grade 10 & Under)']],
  ['Discrete Math (University/College)', ['Data Management (Grade 11-12)', 'Functions', 'Math (Grade 10 & Under)']],
  ['Statistics (University/College)', ['Data Management (Grade 11-12)', 'Math (Grade 10 & Under)']],
  ...['Biology', 'Chemistry', 'Physics', 'Accounting', 'Economics', 'Finance', 'Computer Science'].flatMap((area) =>
    ladder(area, ['University/College']),
  ),
  ...ladder('English', ['University/College', 'Grade 11-12']),
]);

const mappingByName = new Map(Object.entries(qualificationMapping).map(([name, implied]) => [normalizeSubjectName(name), implied]));

/** Every subject name choosing `name` selects, directly or through another, in mapping order. */
export function impliedSubjectNames(name: string): string[] {
  const seen = new Set([normalizeSubjectName(name)]);
  const out: string[] = [];
  const visit = (from: string) => {
    for (const implied of mappingByName.get(normalizeSubjectName(from)) ?? []) {
      const key = normalizeSubjectName(implied);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(implied);
      visit(implied);
    }
  };
  visit(name);
  return out;
}

/** A subject a tutor teaches and the highest level they teach it at (the saved form of spec part 2 §7). */
export interface Qualification {
  subjectId: string;
  maxGradeLevel: GradeLevel;
}

/** A catalogue entry as the policy needs it. To work on names alone, pass each name as its own id. */
export interface SubjectRef {
  id: string;
  name: string;
}

export interface Selection {
  qualifications: Qualification[];
  /** The subjects the choice selected besides itself (the editor shows AUTO_SELECTED_* when any). */
  autoSelected: string[];
}

export interface QualificationPolicy {
  /** The level the subject's name implies; a subject the catalogue does not name gets the default. */
  levelOf(subjectId: string): GradeLevel;
  /** The catalogue's subjects that choosing this one also selects (transitively). */
  impliedBy(subjectId: string): string[];
  /**
   * Checks a subject: it and every subject it implies are selected; an entry already selected
   * keeps its level, a new one gets the level its name implies.
   */
  select(current: readonly Qualification[], subjectId: string): Selection;
  /** Unchecks a subject: it goes, with every selected subject that implies it (a higher level depending on it). */
  unselect(current: readonly Qualification[], subjectId: string): Qualification[];
  /** Saved qualifications completed with every implied subject not already among them (a server-side check). */
  expand(qualifications: readonly Qualification[]): Qualification[];
}

/** The policy over a catalogue: usually the active subjects of `GET /api/subjects`. */
export function qualificationPolicy(subjects: readonly SubjectRef[]): QualificationPolicy {
  const nameOf = new Map(subjects.map((s) => [s.id, s.name]));
  const idsByName = new Map<string, string[]>();
  for (const s of subjects) {
    const key = normalizeSubjectName(s.name);
    idsByName.set(key, [...(idsByName.get(key) ?? []), s.id]);
  }
  const levelOf = (subjectId: string) => {
    const name = nameOf.get(subjectId);
    return name === undefined ? DEFAULT_GRADE_LEVEL : levelOfSubjectName(name);
  };
  const impliedBy = (subjectId: string) => {
    const name = nameOf.get(subjectId);
    if (name === undefined) return [];
    const ids = impliedSubjectNames(name).flatMap((n) => idsByName.get(normalizeSubjectName(n)) ?? []);
    return [...new Set(ids)].filter((id) => id !== subjectId);
  };
  /** A subject listed twice counts once, as first listed. */
  const withoutDuplicates = (list: readonly Qualification[]) => {
    const seen = new Set<string>();
    return list.filter((q) => {
      if (seen.has(q.subjectId)) return false;
      seen.add(q.subjectId);
      return true;
    });
  };
  const select = (current: readonly Qualification[], subjectId: string): Selection => {
    const qualifications = withoutDuplicates(current);
    const selected = new Set(qualifications.map((q) => q.subjectId));
    if (!selected.has(subjectId)) qualifications.push({ subjectId, maxGradeLevel: levelOf(subjectId) });
    const autoSelected = impliedBy(subjectId).filter((id) => !selected.has(id));
    for (const id of autoSelected) qualifications.push({ subjectId: id, maxGradeLevel: levelOf(id) });
    return { qualifications, autoSelected };
  };
  return {
    levelOf,
    impliedBy,
    select,
    unselect(current, subjectId) {
      // impliedBy is transitive, so one pass finds every subject that depends on the unchecked one.
      return withoutDuplicates(current).filter((q) => q.subjectId !== subjectId && !impliedBy(q.subjectId).includes(subjectId));
    },
    expand(qualifications) {
      return qualifications.reduce<Qualification[]>(
        (list, q) => select(list, q.subjectId).qualifications,
        withoutDuplicates(qualifications),
      );
    },
  };
}
