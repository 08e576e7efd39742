import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * The load generator's side of the HTTP benchmarks, kept cheap on purpose: the clients share the
 * machine's two cores with the server they measure, and `fetch` spends about twice the CPU of a
 * keep-alive `node:http` request, all of it taken from the system under test. Still real HTTP over
 * a socket, one keep-alive connection per client.
 */
export function httpLoad(base: string, clients: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  return {
    post(path: string, headers: Record<string, string>, payload: unknown): Promise<Answer> {
      const body = JSON.stringify(payload);
      return new Promise((resolve, reject) => {
        const req = request(
          `${base}${path}`,
          { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', reject);
            res.on('end', () => {
              let parsed: unknown = {};
              try {
                parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              } catch {
                // A body that is not JSON is reported as an empty object: the status tells the outcome.
              }
              resolve({ status: res.statusCode ?? 0, body: parsed });
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
