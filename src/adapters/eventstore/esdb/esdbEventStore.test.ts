import { vi } from 'vitest';
import { type ContractTarget, eventStoreContract } from '../eventStore.contract.ts';
import { EsdbEventStore } from './esdbEventStore.ts';

const IMAGE = 'eventstore/eventstore:24.10';

// Pulling and starting the image can take longer than the default hook timeout.
vi.setConfig({ hookTimeout: 300_000 });

/**
 * Runs the contract against EVENTSTORE_URL when it answers, otherwise against a throw-away
 * container when a container runtime is available, otherwise skips every test with the reason.
 * EVENTSTORE_URL must point at a server nothing else writes to during the run: the suite counts
 * what lands in $all.
 */
eventStoreContract('esdb', async (): Promise<ContractTarget | null> => {
  const reasons: string[] = [];

  const url = process.env.EVENTSTORE_URL;
  if (url) {
    try {
      const store = await EsdbEventStore.connect(url, { deadlineMs: 5_000 });
      return { store, dispose: () => store.close() };
    } catch (error) {
      reasons.push(`EVENTSTORE_URL does not answer (${firstLine(error)})`);
    }
  } else {
    reasons.push('EVENTSTORE_URL not set');
  }

  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    reasons.push(`no container runtime (${firstLine(error)})`);
    console.log(`EventStoreDB contract suite skipped: ${reasons.join(' and ')}`);
    return null;
  }

  const container = await new GenericContainer(IMAGE)
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'All',
      EVENTSTORE_MEM_DB: 'true',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forListeningPorts())
    .withStartupTimeout(240_000)
    .start();
  const containerUrl = `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
  // The port opens before the node has elected itself leader: wait until it serves reads.
  const store = new EsdbEventStore(containerUrl, { deadlineMs: 10_000 });
  for (let deadline = Date.now() + 60_000; ; ) {
    try {
      await store.headPosition();
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await store.close();
        await container.stop();
        throw new Error(`EventStoreDB container at ${containerUrl} never became ready: ${firstLine(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return {
    store,
    async dispose() {
      await store.close();
      await container.stop();
    },
  };
});

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]?.trim() || 'unknown error';
}
