import { createServer, type Server } from 'node:http';
import type { Readiness } from '@warden/consumer';

// GET /readyz answers 200 while the consumer demonstrably makes progress (its own judgement, see the
// package's readiness()) and 503 with the reason otherwise; GET /healthz answers 200 while the process runs.

export function startReadinessServer(port: number, readiness: () => Readiness): Promise<Server> {
  const server = createServer((request, response) => {
    const answer = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET') return answer(405, { error: 'only GET' });
    if (request.url === '/healthz') return answer(200, { alive: true });
    if (request.url === '/readyz') {
      const current = readiness();
      return answer(current.ready ? 200 : 503, current);
    }
    return answer(404, { error: 'GET /readyz or /healthz' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
