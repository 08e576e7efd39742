import { gradeTierEvents } from './gradeTier.ts';
import { subjectEntryEvents } from './subject.ts';
import { subjectNameEvents } from './subjectName.ts';

/** Every event type of the subjects feature, aggregate by aggregate. */
export const subjectEvents = { ...subjectEntryEvents, ...subjectNameEvents, ...gradeTierEvents };
