import { eventually } from './eventually';

// A program's readiness as its own HTTP server reports it (GET /readyz: 200 while ready, else 503 with a
// detail), asked and waited for by the helpers that run the worker or a service as a process of its own
// (scripts/lib/worker-process.ts, orders-service.ts).

export interface ReadyzAnswer {
  ready: boolean;
  /** The body's detail; else the HTTP status, or why the server could not be asked. */
  detail: string;
}

/** How one /readyz answer reads: 200 is ready; the detail is the body's, else the HTTP status. */
export function readReadyzAnswer(status: number, body: unknown): ReadyzAnswer {
  const detail =
    typeof body === 'object' && body !== null && 'detail' in body && typeof body.detail === 'string'
      ? body.detail
      : `HTTP ${status}`;
  return { ready: status === 200, detail };
}

/** What GET http://127.0.0.1:<port>/readyz answers; never rejects (an unreachable server is not ready). */
export async function askReadyz(port: string | number): Promise<ReadyzAnswer> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    return readReadyzAnswer(response.status, await response.json().catch(() => ({})));
  } catch (error) {
    return { ready: false, detail: `unreachable: ${error instanceof Error ? error.message : String(error)}` };
  }
}

class ExitedError extends Error {}

/**
 * Waits until `ask` says ready. Fails after `timeoutMs` naming the process (`name`, e.g. "the worker on port
 * 9464"), and at once, with its last output, when `exitedOutput` returns that output because the process exited
 * (a process that exited never becomes ready).
 */
export async function waitUntilReady(options: {
  name: string;
  ask: () => Promise<ReadyzAnswer>;
  exitedOutput: () => string | null;
  timeoutMs: number;
}): Promise<void> {
  await eventually(
    `${options.name} to be ready`,
    async () => {
      const output = options.exitedOutput();
      if (output !== null) throw new ExitedError(`${options.name} exited before it was ready:\n${output}`);
      return (await options.ask()).ready ? true : undefined;
    },
    options.timeoutMs,
    { rethrow: (error) => error instanceof ExitedError },
  );
}
