// The wait of a bench workload's steps: a condition polled until it holds, a step that never happens failing
// the workload with its name, and a process the step depends on that exited failing it at once.

/** A process a step depends on (the example service of workload (13)). */
export interface WatchedProcess {
  /** Its last output once it exited; null while it runs. */
  exitedOutput(): string | null;
  /** Its last output, for the message of a step that timed out. */
  lastOutput(): string;
}

export interface PollOptions {
  /** Named first in every failure. */
  workload: string;
  watched?: WatchedProcess;
  /** Default 5 ms. */
  pollMs?: number;
  /** Default 30 s. */
  timeoutMs?: number;
}

/**
 * Polls `probe` until it returns a value other than undefined, and returns that value. Fails after `timeoutMs`
 * naming the workload and `what` (with the watched process's last output), at once when the watched process
 * exited, and with `probe`'s own error when it throws (a step that can no longer happen).
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  options: PollOptions,
): Promise<T> {
  const { workload, watched, pollMs = 5, timeoutMs = 30_000 } = options;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const exited = watched?.exitedOutput() ?? null;
    if (exited !== null) throw new Error(`${workload}: the service exited while waiting for ${what}:\n${exited}`);
    if (performance.now() > deadline) {
      const output = watched ? `; the service's last output:\n${watched.lastOutput()}` : '';
      throw new Error(`${workload}: ${what} did not happen within ${timeoutMs} ms${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
