import type { Clock } from '../../adapters/clock/clock.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type { CommandContext } from '../../commands/kit/commandContext.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import type { DomainEvent } from '../../domain/kit/decider.ts';
import type { Workflow } from '../../domain/kit/workflow.ts';
import type { Projector } from '../../projections/runner/projector.ts';

/** Carries out one step of a workflow (a command on some stream, a key shredded, …). */
export type StepDispatcher<Step> = (step: Step, ctx: CommandContext) => Promise<unknown>;

/**
 * Runs a workflow on the log like a reactor: checkpointed with the projection runner, never
 * rebuilt. Each instance's state is kept in `workflow_state` and written in the batch's
 * transaction with the checkpoint; the steps run before it commits, with command ids derived from
 * (workflow, event, step), so a batch replayed after a crash takes no step twice. A step that
 * fails fails the event: the runner parks it and raises an alert; nothing is swallowed. Steps
 * decide at the system's clock (`clock`).
 */
export function workflowProjector<Input extends DomainEvent, State, Step extends { step: string }>(
  workflow: Workflow<Input, State, Step>,
  dispatch: StepDispatcher<Step>,
  clock: Clock,
): Projector {
  return {
    name: workflow.name,
    handles: workflow.handles,
    tables: [],
    // workflow_state is an infrastructure table (migration 0009): never rebuilt.
    async setup() {},
    async apply(tx, events) {
      const typed = events.map((e) => ({ recorded: e, event: toDomainEvent<Input>(e) }));
      const instances = [...new Set(typed.map(({ event }) => workflow.instanceOf(event)).filter((i): i is string => i !== null))];
      if (instances.length === 0) return;
      const rows = await tx<{ instance: string; state: State }[]>`
        SELECT instance, state FROM workflow_state WHERE workflow = ${workflow.name} AND instance = ANY(${instances})`;
      const states = new Map<string, State>(rows.map((r) => [r.instance, r.state]));
      const finished = new Set<string>();
      for (const { recorded, event } of typed) {
        const instance = workflow.instanceOf(event);
        if (instance === null) continue;
        const state = workflow.evolve(states.get(instance) ?? workflow.initialState, event);
        states.set(instance, state);
        for (const step of workflow.react(state, event)) await dispatch(step, stepContext(workflow.name, recorded, step.step, clock.now()));
        if (workflow.isFinished(state)) finished.add(instance);
      }
      const kept = [...states].filter(([instance]) => !finished.has(instance)).map(([instance, state]) => ({ instance, state }));
      if (kept.length > 0) {
        await tx`
          INSERT INTO workflow_state (workflow, instance, state)
          SELECT ${workflow.name}, x.instance, x.state FROM jsonb_to_recordset(${tx.json(kept as never)}) AS x(instance text, state jsonb)
          ON CONFLICT (workflow, instance) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`;
      }
      // A finished instance keeps nothing: its state named the person's claims.
      if (finished.size > 0) await tx`DELETE FROM workflow_state WHERE workflow = ${workflow.name} AND instance = ANY(${[...finished]})`;
    },
  };
}

function stepContext(workflow: string, event: RecordedEvent, step: string, now: Date): CommandContext {
  return commandContext({
    now,
    commandId: deterministicUuid(`${workflow}/${event.id}/${step}`),
    actorRole: 'system',
    correlationId: event.metadata.correlationId ?? event.id,
    causationId: event.id,
  });
}
