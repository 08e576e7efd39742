import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { requireCleanName } from '../kit/nameText.ts';
import { tidySubjectName } from './gradeLevels.ts';
import { evolveSubject, initialSubjectState, type SubjectEntry, type SubjectEvent, type SubjectState } from './subject.ts';
import { subjectNameKey } from './subjectName.ts';

export type SubjectCommand =
  | Command<'AddSubject', { subjectId: string; entry: SubjectEntry }>
  /** `claimedFrom`: the name key the caller read (and released a claim on): an edit in between refuses. */
  | Command<'EditSubject', { subjectId: string; entry: SubjectEntry; claimedFrom: string }>
  | Command<'DeactivateSubject', { subjectId: string }>
  | Command<'ReactivateSubject', { subjectId: string }>;

export const SUBJECT_NOT_FOUND = 'Subject not found';
export const SUBJECT_CHANGED_MEANWHILE = 'This subject was changed at the same time. Please reload it and try again.';

const optional = (text: string | null) => {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/** The entry as recorded: the name's spaces tidied, empty optional fields as null. */
function tidy(entry: SubjectEntry): SubjectEntry {
  const name = tidySubjectName(entry.name);
  if (name === '') throw new DomainError('Name is required', 'invalid');
  requireCleanName(name, 'Name', 'name');
  if (entry.category) requireCleanName(entry.category, 'Category', 'category');
  return { name, description: optional(entry.description), category: optional(entry.category), gradeLevel: entry.gradeLevel };
}

const sameEntry = (a: SubjectEntry, b: SubjectEntry) =>
  a.name === b.name && a.description === b.description && a.category === b.category && a.gradeLevel === b.gradeLevel;

function existing(state: SubjectState): SubjectEntry {
  if (!state.entry) throw new DomainError(SUBJECT_NOT_FOUND, 'not_found');
  return state.entry;
}

export const decideSubject = decideWith<SubjectCommand, SubjectEvent, SubjectState>({
  AddSubject({ data, metadata: { now } }, state) {
    if (state.entry) throw new DomainError('This subject already exists', 'conflict');
    return [{ type: 'SubjectAdded', data: { subjectId: data.subjectId, ...tidy(data.entry), at: now.toISOString() } }];
  },
  EditSubject({ data, metadata: { now } }, state) {
    const current = existing(state);
    if (subjectNameKey(current.gradeLevel, current.name) !== data.claimedFrom) throw new DomainError(SUBJECT_CHANGED_MEANWHILE, 'conflict');
    const entry = tidy(data.entry);
    if (sameEntry(current, entry)) return [];
    return [{ type: 'SubjectEdited', data: { subjectId: data.subjectId, ...entry, at: now.toISOString() } }];
  },
  DeactivateSubject({ data, metadata: { now } }, state) {
    existing(state);
    return state.active ? [{ type: 'SubjectDeactivated', data: { subjectId: data.subjectId, at: now.toISOString() } }] : [];
  },
  ReactivateSubject({ data, metadata: { now } }, state) {
    existing(state);
    return state.active ? [] : [{ type: 'SubjectReactivated', data: { subjectId: data.subjectId, at: now.toISOString() } }];
  },
});

export const subjectDecider: Decider<SubjectCommand, SubjectEvent, SubjectState> = {
  initialState: initialSubjectState,
  evolve: evolveSubject,
  decide: decideSubject,
};
