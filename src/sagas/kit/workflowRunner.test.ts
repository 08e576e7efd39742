import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { START } from '../../adapters/eventstore/eventStore.ts';
import { accountHandlers, reservationStreamId } from '../../commands/accounts/accountDeps.ts';
import { registerAccount } from '../../commands/accounts/registerUser.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { type AccountDeletionStep, accountDeletionWorkflow } from '../../domain/accounts/accountDeletion.ts';
import { workflowProjector } from './workflowRunner.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('cli');
});
afterAll(async () => system.dispose());

describe('workflow runner', () => {
  it('resumes a cascade that failed half-way without taking any step twice', async () => {
    const { userId } = await registerAccount(
      system.accounts,
      {
        username: 'crashy',
        email: 'crashy@example.com',
        password: null,
        role: 'student',
        firstName: 'C',
        lastName: 'R',
        phone: null,
        authProvider: 'local',
        googleId: null,
        emailVerified: true,
        termsAccepted: null,
        student: { grade: 'Grade 9', isUniversityStudent: false },
      },
      commandContext({ now: system.clock.now() }),
    );
    const handlers = accountHandlers(system.store);
    await handlers.users.handle(
      userId,
      { type: 'DeleteAccount', data: { userId, contactIds: [] } },
      commandContext({ now: system.clock.now() }),
    );

    const taken: string[] = [];
    let failOn: string | null = 'release-username';
    const projector = workflowProjector(
      accountDeletionWorkflow(reservationStreamId),
      async (step: AccountDeletionStep, ctx) => {
        if (step.step === failOn) throw new Error('provider down');
        taken.push(step.step);
        if (step.target === 'students') return handlers.students.handle(step.id, step.command, ctx);
        if (step.target === 'reservations') return handlers.reservations.handle(step.id, step.command, ctx);
        if (step.target === 'contacts') return handlers.contacts.handle(step.id, step.command, ctx);
        if (step.target === 'files' || step.target === 'sessions' || step.target === 'calendar') return;
        return system.vault.shred(step.subject);
      },
      system.clock,
    );
    const all = async () => {
      for (let i = 0; i < 100; i++) {
        const read = await system.store.readAll(START, 1000);
        if (read.some((e) => e.type === 'AccountDeleted')) return read;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the log never showed the deletion');
    };
    const events = (await all()).filter((e) => projector.handles === '*' || projector.handles.includes(e.type));
    await system.sql.begin((tx) => projector.setup(tx));
    // The first attempt dies at the username claim: its transaction (state, checkpoint) rolls back.
    await expect(system.sql.begin((tx) => projector.apply(tx, events))).rejects.toThrow('provider down');
    failOn = null;
    await system.sql.begin((tx) => projector.apply(tx, events));
    // The steps before the failure ran again (as no-ops); the ones after it ran once.
    expect(taken.filter((s) => s.startsWith('erase-student-'))).toHaveLength(2);
    expect(taken.filter((s) => s === 'shred-account')).toHaveLength(1);

    // Steps replayed after the failure appended nothing twice: each stream holds its event once.
    const released = await system.store.readStream(reservationStreamId('email', 'crashy@example.com'));
    expect(released.map((e) => e.type)).toEqual(['ValueReserved', 'ValueReleased']);
    const username = await system.store.readStream(reservationStreamId('username', 'crashy'));
    expect(username.map((e) => e.type)).toEqual(['ValueReserved', 'ValueReleased']);
    const erasures = (await system.store.readAll(START, 1000)).filter((e) => e.type === 'StudentProfileErased');
    expect(erasures).toHaveLength(1);
    // The finished instance is forgotten (its state named the person's claims).
    expect(await system.sql`SELECT 1 FROM workflow_state WHERE workflow = 'account_deletion' AND instance = ${userId}`).toHaveLength(0);
  });
});
