import type { SagaFeature } from '../kit/sagaFeature.ts';
import { HOUSEKEEPING_QUEUE, scheduleHousekeeping } from './housekeeping.ts';

export const maintenanceSagas: SagaFeature = {
  name: 'maintenance',
  queues: [{ name: HOUSEKEEPING_QUEUE, retryLimit: 1, retryDelaySeconds: 60 }],
  work: (ports) => scheduleHousekeeping(ports.jobs, ports.sql),
};
