import type { SagaFeature } from '../kit/sagaFeature.ts';
import { COURSE_ENROLLMENT_SYNC_QUEUE, courseEnrollmentSyncReactor, workCourseEnrollmentSync } from './courseEnrollmentSync.ts';

export const courseSagas: SagaFeature = {
  name: 'courses',
  queues: [{ name: COURSE_ENROLLMENT_SYNC_QUEUE, retryLimit: 8, retryDelaySeconds: 2 }],
  reactors: [courseEnrollmentSyncReactor],
  work: (ports) => workCourseEnrollmentSync(ports.jobs, { store: ports.store, accountHandlers: ports.accountHandlers, clock: ports.clock }),
};
