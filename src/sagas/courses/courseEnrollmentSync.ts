import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { AccountHandlers } from '../../commands/accounts/accountDeps.ts';
import { recordCourseEnded, recordCourseTutorChosen } from '../../commands/accounts/enrollment.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import { type CourseEvent, courseStreamId } from '../../domain/courses/course.ts';
import { reactor } from '../kit/reactor.ts';

export const COURSE_ENROLLMENT_SYNC_QUEUE = 'course-enrollment-sync';

interface SyncJob {
  courseId: string;
  change: 'tutorChosen' | 'ended';
  causationId: string;
}

/**
 * A course's tutor choice and its end free the student's enrolment slot (the student's stream
 * holds the enrolment rules). The routes record both at once for a quick answer; this saga makes
 * sure the student's stream follows even when the request died between the two streams.
 */
export const courseEnrollmentSyncReactor = reactor({
  name: 'course_enrollment_sync',
  handles: ['CourseTutorChosen', 'CourseEnded'],
  jobsFor(event) {
    const { courseId } = event.data;
    return [
      {
        queue: COURSE_ENROLLMENT_SYNC_QUEUE,
        id: deterministicUuid(`${event.id}/enrollment-sync`),
        data: { courseId, change: event.type === 'CourseEnded' ? 'ended' : 'tutorChosen', causationId: event.id } satisfies SyncJob,
      },
    ];
  },
});

export interface CourseEnrollmentSyncDeps {
  store: EventStore;
  accountHandlers: Pick<AccountHandlers, 'students'>;
  clock: Clock;
}

export async function syncEnrollment(deps: CourseEnrollmentSyncDeps, job: SyncJob): Promise<void> {
  const events = (await deps.store.readStream(courseStreamId(job.courseId))).map((e) => toDomainEvent<CourseEvent>(e));
  const enrolled = events.find((e) => e.type === 'CourseEnrolled');
  if (enrolled?.type !== 'CourseEnrolled') throw new Error(`Course ${job.courseId} has no enrolment`);
  const input = { studentId: enrolled.data.studentId, courseId: job.courseId };
  // The student's deciders ignore a change already recorded (by the route or an earlier try).
  const ctx = commandContext({
    commandId: deterministicUuid(`${job.causationId}/enrollment-sync`),
    actorRole: 'system',
    causationId: job.causationId,
    now: deps.clock.now(),
  });
  if (job.change === 'ended') await recordCourseEnded(deps.accountHandlers, input, ctx);
  else await recordCourseTutorChosen(deps.accountHandlers, input, ctx);
}

export async function workCourseEnrollmentSync(queue: JobQueue, deps: CourseEnrollmentSyncDeps): Promise<void> {
  // One student's changes one after the other: they append to the same stream.
  await queue.work<SyncJob>(COURSE_ENROLLMENT_SYNC_QUEUE, (job) => syncEnrollment(deps, job), { keyOf: (job) => job.courseId });
}
