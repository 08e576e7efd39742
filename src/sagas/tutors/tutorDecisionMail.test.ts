import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literally, pgDump, tablesContaining } from '../../../tests/support/pgDump.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import type { Mailer, OutgoingMail } from '../../adapters/mail/mailer.ts';
import { listOutbox, OutboxMailer } from '../../adapters/mail/outboxMailer.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { reviewTutorApplication } from '../../commands/tutors/reviewApplication.ts';
import { tutorHandlers } from '../../commands/tutors/tutorHandlers.ts';
import { tutorApplicationStreamId } from '../../domain/accounts/tutorApplication.ts';
import { decisionMailSubject } from '../../domain/tutors/tutorReview.ts';
import { type DecisionMailJob, sendTutorMail, TUTOR_MAIL_QUEUE, tutorMailJobId } from './tutorMailSaga.ts';
import { tutorReviewSaga } from './tutorReviewSaga.ts';

/**
 * The decision mail to rejected and denied tutor applicants, on PostgreSQL and pg-boss: a denial
 * erases the applicant's address, so its mail is queued (the address sealed under the mail's own
 * key) before the shredding, sent once, and then erased with that key.
 */
describe('the decision mail to tutor applicants', () => {
  let system: TestSystem;
  /** Every mail handed to the mail server (a spy at the network edge), kept in the real outbox too. */
  const sent: OutgoingMail[] = [];
  /** Addresses whose next sends fail (a mail server that is down), and how many times. */
  const failing = new Map<string, number>();
  let outbox: OutboxMailer | null = null;
  const mailer: Mailer = {
    kind: 'outbox',
    async send(mail) {
      const left = failing.get(mail.to) ?? 0;
      if (left > 0) {
        failing.set(mail.to, left - 1);
        throw new Error('421 mail server unavailable');
      }
      if (!outbox) throw new Error('the outbox is not ready');
      await outbox.send(mail);
      sent.push(mail);
    },
  };

  beforeAll(async () => {
    system = await createTestSystem('all', {}, { mailer, retry: { retryLimit: 2, retryDelaySeconds: 1 } });
    outbox = new OutboxMailer(system.sql, undefined, system.vault);
  }, 60_000);
  afterAll(() => system.dispose());

  const handlers = () => tutorHandlers(system.store);
  const ctx = (name: string) =>
    commandContext({ commandId: deterministicUuid(`decision-mail-test/${name}`), actorRole: 'admin', now: system.clock.now() });

  async function applicant(n: string, firstName: string, lastName: string): Promise<{ applicantId: string; email: string }> {
    const email = `${firstName.toLowerCase()}.${lastName.toLowerCase()}@example.com`;
    const applicantId = deterministicUuid(`decision-mail-applicant/${n}`);
    await handlers().applications.handle(
      applicantId,
      {
        type: 'SubmitTutorApplication',
        data: {
          applicationId: deterministicUuid(`decision-mail-application/${n}`),
          userId: applicantId,
          email,
          firstName,
          lastName,
          googleId: `google-${n}`,
        },
      },
      ctx(`submit-${n}`),
    );
    return { applicantId, email };
  }

  const mailsTo = (email: string) => sent.filter((m) => m.to === email);
  const jobsOf = async (applicantId: string) =>
    system.sql<{ id: string; state: string; data: DecisionMailJob }[]>`
      SELECT id, state::text, data FROM pgboss.job
       WHERE name = ${TUTOR_MAIL_QUEUE} AND data->>'streamId' = ${tutorApplicationStreamId(applicantId)} AND data ? 'decision'`;
  const keyExists = async (subject: string) => (await system.sql`SELECT 1 FROM personal_data_keys WHERE subject = ${subject}`).length > 0;
  const denialOf = async (applicantId: string) =>
    (await system.store.readStream(tutorApplicationStreamId(applicantId))).find((e) => e.type === 'TutorApplicationDenied');

  it('tells a denied applicant once, in plain words, before their data is erased; then nothing personal remains', async () => {
    const { applicantId, email } = await applicant('denied', 'Wilhelmina', 'Quargsby');
    await reviewTutorApplication(handlers(), applicantId, 'deny', ctx('deny-denied'));

    await expect.poll(() => mailsTo(email).length, { timeout: 20_000 }).toBe(1);
    const [mail] = mailsTo(email);
    expect(mail?.subject).toBe('Your Topmark tutor application');
    expect(mail?.text).toContain('Hi Wilhelmina,');
    expect(mail?.text).toContain('we have declined your application');
    expect(mail?.text).toContain('has been deleted from Topmark');
    expect(mail?.text).toContain('write to careers@topmark.ca');

    // The job completes and the mail's own key goes with it; the application reads as erased.
    await expect.poll(async () => (await jobsOf(applicantId)).map((j) => j.state), { timeout: 20_000 }).toEqual(['completed']);
    const denial = await denialOf(applicantId);
    const applicationId = deterministicUuid('decision-mail-application/denied');
    await expect.poll(() => keyExists(decisionMailSubject(applicationId)), { timeout: 20_000 }).toBe(false);
    const [submitted] = await system.store.readStream(tutorApplicationStreamId(applicantId));
    expect(submitted?.data).toMatchObject({ email: ERASED, firstName: ERASED, lastName: ERASED });

    // The kept copy in the outbox is there once, and erased like every mail of an erased person.
    const kept = (await listOutbox(system.sql, { limit: 1000 })).filter((m) => m.id === mail?.id);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ to: ERASED, subject: ERASED, text: ERASED });

    // The job run again (its completion lost) and the workflow's step replayed: nothing new.
    const [job] = await jobsOf(applicantId);
    await sendTutorMail({ store: system.store, mailer, vault: system.vault }, job!.data);
    expect(job?.id).toBe(tutorMailJobId(denial!.id));
    const workflow = tutorReviewSaga({
      store: system.store,
      sql: system.sql,
      vault: system.vault,
      tutors: handlers(),
      jobs: system.jobs,
      clock: system.clock,
      registerAccount: () => Promise.reject(new Error('a denial registers nobody')),
    });
    await system.sql.begin((tx) => workflow.apply(tx as never, [denial!], 'live'));
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo(email)).toHaveLength(1);
    expect(await jobsOf(applicantId)).toHaveLength(1);

    const dump = await pgDump(system.databaseUrl);
    expect(dump).toContain(applicantId);
    for (const [what, pattern] of [
      ['e-mail address', literally(email)],
      ['first name', literally('Wilhelmina')],
      ['last name', literally('Quargsby')],
    ] as const) {
      const tables = tablesContaining(dump, pattern);
      expect.soft(tables, `the ${what} is still in ${tables.join(', ')}`).toEqual([]);
    }
  }, 60_000);

  it('sends the denial once when the mail server fails first (the job is retried), and erases anyway when it never answers', async () => {
    const flaky = await applicant('flaky', 'Perpetua', 'Flange');
    failing.set(flaky.email, 1);
    await reviewTutorApplication(handlers(), flaky.applicantId, 'deny', ctx('deny-flaky'));
    await expect.poll(async () => (await jobsOf(flaky.applicantId)).map((j) => j.state), { timeout: 30_000 }).toEqual(['completed']);
    expect(failing.get(flaky.email)).toBe(0);
    expect(mailsTo(flaky.email)).toHaveLength(1);

    const down = await applicant('down', 'Ignatius', 'Dropwort');
    failing.set(down.email, 100);
    await reviewTutorApplication(handlers(), down.applicantId, 'deny', ctx('deny-down'));
    await expect.poll(async () => (await jobsOf(down.applicantId)).map((j) => j.state), { timeout: 30_000 }).toEqual(['failed']);
    expect(mailsTo(down.email)).toHaveLength(0);
    // The last attempt shredded the mail's key: the address is gone from the job too.
    expect(await keyExists(decisionMailSubject(deterministicUuid('decision-mail-application/down')))).toBe(false);
    const dump = await pgDump(system.databaseUrl);
    expect(tablesContaining(dump, literally(down.email))).toEqual([]);
    expect(tablesContaining(dump, literally('Dropwort'))).toEqual([]);
  }, 90_000);

  it('tells a rejected applicant the decision and what they may do next; a denial after it is told too', async () => {
    const { applicantId, email } = await applicant('rejected', 'Octavia', 'Brindle');
    await reviewTutorApplication(handlers(), applicantId, 'reject', ctx('reject-rejected'));
    await expect.poll(() => mailsTo(email).length, { timeout: 20_000 }).toBe(1);
    expect(mailsTo(email)[0]?.text).toContain('we are unable to offer you a tutoring position at this time');
    expect(mailsTo(email)[0]?.text).toContain('If you have a question about the decision, write to careers@topmark.ca.');

    await reviewTutorApplication(handlers(), applicantId, 'deny', ctx('deny-rejected'));
    await expect.poll(() => mailsTo(email).length, { timeout: 20_000 }).toBe(2);
    expect(mailsTo(email)[1]?.text).toContain('we have declined your application');
  }, 60_000);
});
