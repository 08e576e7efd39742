import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { evolveSubjectName, initialSubjectNameState, type SubjectNameEvent, type SubjectNameState } from './subjectName.ts';

export type SubjectNameCommand =
  | Command<'ReserveSubjectName', { subjectId: string; takenMessage: string }>
  | Command<'ReleaseSubjectName', { subjectId: string }>;

export const decideSubjectName = decideWith<SubjectNameCommand, SubjectNameEvent, SubjectNameState>({
  ReserveSubjectName({ data, metadata: { now } }, state) {
    if (state.heldBy === data.subjectId) return [];
    if (state.heldBy) throw new DomainError(data.takenMessage, 'conflict');
    return [{ type: 'SubjectNameReserved', data: { subjectId: data.subjectId, at: now.toISOString() } }];
  },
  ReleaseSubjectName({ data, metadata: { now } }, state) {
    if (state.heldBy !== data.subjectId) return [];
    return [{ type: 'SubjectNameReleased', data: { subjectId: data.subjectId, at: now.toISOString() } }];
  },
});

export const subjectNameDecider: Decider<SubjectNameCommand, SubjectNameEvent, SubjectNameState> = {
  initialState: initialSubjectNameState,
  evolve: evolveSubjectName,
  decide: decideSubjectName,
};
