import type { SagaFeature } from '../kit/sagaFeature.ts';
import { CONTACT_MAIL_QUEUE, contactMailReactor, workContactMail } from './contactMailSaga.ts';

export const contactSagas: SagaFeature = {
  name: 'contact',
  queues: [{ name: CONTACT_MAIL_QUEUE, retryLimit: 5, retryDelaySeconds: 2 }],
  reactors: [contactMailReactor],
  work: (ports) => workContactMail(ports.jobs, ports),
};
