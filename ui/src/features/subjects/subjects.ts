import type { SubjectTutorStats } from '@shared/courses/courseTutorApi.ts';
import { gradeTiers } from '@shared/pricing/pricing.ts';
import { shownRating } from '@shared/reviews/shownRating.ts';
import { Atom, BookOpen, Calculator, Code, Dna, FlaskConical, Landmark, type LucideIcon, Sigma } from 'lucide-react';

/** The three levels of spec part 1 §1, named as the pricing policy names them. */
export type Level = (typeof gradeTiers)[number]['name'];

export interface Subject {
  id: string;
  name: string;
  icon: LucideIcon;
  /** One line for tiles. */
  tagline: string;
  description: string;
  levels: readonly Level[];
  topics: readonly string[];
  /**
   * Which catalogue subjects this page's subject stands for (every level and course of it): its
   * tutor count and rating are those of the listed tutors teaching them (GET /api/subjects/tutor-stats).
   */
  covers: (entry: { name: string; category: string | null }) => boolean;
}

/** Catalogue courses named after the subject ("Physics (Grade 11-12)", "Physics (University/College)"). */
const named = (prefix: string) => (entry: { name: string }) => entry.name === prefix || entry.name.startsWith(`${prefix} (`);

export const subjects: readonly Subject[] = [
  {
    id: 'mathematics',
    name: 'Mathematics',
    icon: Sigma,
    tagline: 'From fractions to calculus and proofs',
    description:
      'Build number sense, algebraic fluency and the habit of checking your own work. Tutors rebuild shaky foundations first, then stretch into the problem solving that tests and university courses actually reward.',
    levels: ['Grade 10 & Under', 'Grade 11-12', 'University'],
    topics: [
      'Algebra and linear relations',
      'Functions and trigonometry',
      'Advanced functions',
      'Calculus and vectors',
      'Data management and statistics',
      'Linear algebra',
    ],
    covers: (entry) => entry.category === 'Mathematics',
  },
  {
    id: 'physics',
    name: 'Physics',
    icon: Atom,
    tagline: 'Motion, energy, fields and waves',
    description:
      'Turn formulas into understanding. Sessions connect every equation to a picture of what is happening, so students can set up unfamiliar problems instead of hunting for the right formula.',
    levels: ['Grade 10 & Under', 'Grade 11-12', 'University'],
    topics: [
      'Kinematics and dynamics',
      'Energy, work and momentum',
      'Waves, sound and light',
      'Electricity and magnetism',
      'Gravitational and electric fields',
      'Introductory modern physics',
    ],
    covers: named('Physics'),
  },
  {
    id: 'chemistry',
    name: 'Chemistry',
    icon: FlaskConical,
    tagline: 'Atoms, reactions and the mole',
    description:
      'Master the core ideas that everything else depends on: structure, bonding and stoichiometry. Tutors use worked examples and lab-style reasoning to make reactions predictable rather than memorised.',
    levels: ['Grade 10 & Under', 'Grade 11-12', 'University'],
    topics: [
      'Atomic structure and the periodic table',
      'Chemical bonding',
      'Stoichiometry and the mole',
      'Solutions and equilibrium',
      'Acids and bases',
      'Organic chemistry',
    ],
    covers: named('Chemistry'),
  },
  {
    id: 'biology',
    name: 'Biology',
    icon: Dna,
    tagline: 'Cells, genetics and living systems',
    description:
      'Go beyond flashcards. Students learn to explain processes step by step, read diagrams and data, and write the clear, structured answers that long-response questions demand.',
    levels: ['Grade 10 & Under', 'Grade 11-12', 'University'],
    topics: ['Cells and cell division', 'Genetics and heredity', 'Evolution', 'Metabolic processes', 'Human body systems', 'Ecology'],
    covers: named('Biology'),
  },
  {
    id: 'english',
    name: 'English',
    icon: BookOpen,
    tagline: 'Reading, writing and analysis',
    description:
      'Read closely and write with purpose. Tutors work on real assignments, from thesis statements to final drafts, and teach the planning and revision habits that make strong writing repeatable.',
    levels: ['Grade 10 & Under', 'Grade 11-12', 'University'],
    topics: [
      'Reading comprehension',
      'Essay structure and thesis writing',
      'Literary analysis',
      'Grammar and style',
      'Research and citation',
      'Presentations and oral communication',
    ],
    covers: named('English'),
  },
  {
    id: 'computer-science',
    name: 'Computer Science',
    icon: Code,
    tagline: 'Programming, algorithms and data',
    description:
      'Learn to think like a programmer: break problems down, write readable code and debug with confidence. Sessions cover course assignments and the fundamentals behind them.',
    levels: ['Grade 10 & Under', 'Grade 11-12', 'University'],
    topics: [
      'Programming fundamentals in Python and Java',
      'Problem decomposition and debugging',
      'Data structures',
      'Algorithms and complexity',
      'Object-oriented design',
      'Discrete mathematics for computing',
    ],
    covers: named('Computer Science'),
  },
  {
    id: 'accounting',
    name: 'Accounting',
    icon: Calculator,
    tagline: 'The language of business',
    description:
      'Understand why every entry balances. Tutors walk through the accounting cycle with realistic examples so students can prepare, read and analyse financial statements accurately.',
    levels: ['Grade 11-12', 'University'],
    topics: [
      'The accounting cycle',
      'Journal entries and adjustments',
      'Financial statements',
      'Inventory and depreciation',
      'Managerial and cost accounting',
      'Financial statement analysis',
    ],
    covers: named('Accounting'),
  },
  {
    id: 'finance',
    name: 'Finance',
    icon: Landmark,
    tagline: 'Valuation, markets and decisions',
    description:
      'Connect the formulas to real decisions. Sessions cover time value of money, valuation and risk, with plenty of practice on the spreadsheet-style problems university finance courses rely on.',
    levels: ['University'],
    topics: [
      'Time value of money',
      'Bond and stock valuation',
      'Risk, return and portfolio theory',
      'Capital budgeting',
      'Cost of capital',
      'Corporate finance fundamentals',
    ],
    covers: named('Finance'),
  },
];

/** How many subjects are offered at each level. */
export function subjectCountsByLevel(
  list: readonly Subject[] = subjects,
): Array<{ levelId: (typeof gradeTiers)[number]['id']; level: Level; count: number }> {
  return gradeTiers.map((tier) => ({
    levelId: tier.id,
    level: tier.name,
    count: list.filter((s) => s.levels.includes(tier.name)).length,
  }));
}

/** What a subject's card shows: its listed tutors (each counted once across levels) and their reviews' average. */
export interface SubjectFigures {
  tutorCount: number;
  reviewCount: number;
  /** To one decimal from the third review, as tutor cards show it; null below ("New"). */
  rating: number | null;
}

/** The figures of a page subject from the catalogue's (GET /api/subjects/tutor-stats). */
export function subjectFigures(subject: Pick<Subject, 'covers'>, stats: SubjectTutorStats): SubjectFigures {
  const tutorIds = new Set(stats.subjects.filter((s) => subject.covers(s)).flatMap((s) => s.tutorIds));
  return figuresOf(tutorIds, stats);
}

/** Every listed tutor of the page's subjects, once. */
export function allFigures(list: readonly Pick<Subject, 'covers'>[], stats: SubjectTutorStats): SubjectFigures {
  const tutorIds = new Set(stats.subjects.filter((s) => list.some((subject) => subject.covers(s))).flatMap((s) => s.tutorIds));
  return figuresOf(tutorIds, stats);
}

function figuresOf(tutorIds: ReadonlySet<string>, stats: SubjectTutorStats): SubjectFigures {
  const tutors = stats.tutors.filter((t) => tutorIds.has(t.tutorId));
  const reviewCount = tutors.reduce((sum, t) => sum + t.reviewCount, 0);
  const total = tutors.reduce((sum, t) => sum + t.ratingTotal, 0);
  return { tutorCount: tutorIds.size, reviewCount, rating: shownRating(reviewCount, total) };
}
