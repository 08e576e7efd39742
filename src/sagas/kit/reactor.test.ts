import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { reactor } from './reactor.ts';

const recorded = (type: string, data: unknown) =>
  ({
    id: randomUUID(),
    type,
    data,
    metadata: {},
    streamId: 'course-c1',
    revision: 0,
    position: '0',
    recordedAt: new Date('2030-01-01T00:00:00Z'),
  }) satisfies RecordedEvent;

/** Echoes what it was handed, so a test sees the event as the definition receives it. */
const echo = reactor({
  name: 'echo',
  handles: ['CourseEnded', 'CourseTutorChosen'],
  jobsFor: (event) => [{ queue: 'echo', id: event.id, data: { type: event.type, data: event.data } }],
});

describe('a reactor', () => {
  it("hands its definition the event with data parsed by the type's schema", () => {
    const ended = recorded('CourseEnded', { courseId: 'c1', at: '2030-01-01T00:00:00Z', ignored: 'dropped by the schema' });
    expect(echo.jobsFor(ended)).toEqual([
      { queue: 'echo', id: ended.id, data: { type: 'CourseEnded', data: { courseId: 'c1', at: '2030-01-01T00:00:00Z' } } },
    ]);
  });

  it('throws on data its schema refuses, naming the reactor, the event and its type (the runner parks it)', () => {
    const broken = recorded('CourseEnded', { at: '2030-01-01T00:00:00Z' });
    expect(() => echo.jobsFor(broken)).toThrow(`echo: the data of event ${broken.id} (CourseEnded) does not parse`);
  });

  it('makes no jobs for a type it does not declare', () => {
    expect(echo.jobsFor(recorded('CourseEnrolled', {}))).toEqual([]);
  });
});
