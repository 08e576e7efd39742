import type { SagaFeature } from '../kit/sagaFeature.ts';
import { accountDeletionSaga } from './accountDeletionSaga.ts';
import { ACCOUNT_MAIL_QUEUE, accountMailReactor, workAccountMail } from './accountMailSaga.ts';

export const accountSagas: SagaFeature = {
  name: 'accounts',
  queues: [{ name: ACCOUNT_MAIL_QUEUE, retryLimit: 5, retryDelaySeconds: 2 }],
  reactors: [accountMailReactor],
  workflows: (ports) => [
    accountDeletionSaga({
      handlers: ports.accountHandlers,
      vault: ports.vault,
      files: ports.files,
      store: ports.store,
      jobs: ports.jobs,
      clock: ports.clock,
    }),
  ],
  work: (ports) => workAccountMail(ports.jobs, ports),
};
