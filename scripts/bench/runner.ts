import { fork } from 'node:child_process';
import path from 'node:path';
import type { ChildMessage, ChildSpec, Measurement } from './protocol';

// Runs one workload in a child process of its own, so the child's peak RSS is the workload's and
// nothing of one run (heap, sockets, timers) leaks into the next.

const CHILD = path.join(__dirname, 'child.ts');
/** Extra time the child gets beyond its own timeout to report it before it is killed. */
const KILL_GRACE_MS = 30_000;

export interface RunOptions {
  /** The child's consumer joined its group (keyed-retries produces only from then on). */
  onReady?: () => Promise<void>;
  /** Write a V8 CPU profile of the child into this directory (node --cpu-prof). */
  cpuProfileDir?: string;
}

export function runChild(spec: ChildSpec, hooks: RunOptions = {}): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    // One directory per workload: Node names each thread's profile CPU.<date>.<pid>.<thread>.<seq>.cpuprofile
    // (the main thread's is the large one; tsx's loader thread writes a small one).
    const profile = hooks.cpuProfileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${path.join(hooks.cpuProfileDir, `workload-${spec.workload}`)}`]
      : [];
    const child = fork(CHILD, [JSON.stringify(spec)], {
      execArgv: ['--import', 'tsx', ...profile],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    let readyWork: Promise<void> = Promise.resolve();
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      outcome();
    };
    const killTimer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(() =>
        reject(
          new Error(
            `workload ${spec.workload}: the child did not answer within ${spec.timeoutMs + KILL_GRACE_MS} ms; killed`,
          ),
        ),
      );
    }, spec.timeoutMs + KILL_GRACE_MS);

    child.on('message', (message: ChildMessage) => {
      switch (message.type) {
        case 'ready':
          readyWork = (hooks.onReady?.() ?? Promise.resolve()).catch((error: Error) => {
            child.kill('SIGKILL');
            settle(() => reject(new Error(`workload ${spec.workload}: ${error.message}`)));
          });
          return;
        case 'result':
          void readyWork.then(() => settle(() => resolve(message.measurement)));
          return;
        case 'error':
          settle(() => reject(new Error(`workload ${spec.workload} failed: ${message.message}`)));
          return;
      }
    });
    child.on('error', (error) => settle(() => reject(error)));
    child.on('close', (code, signal) => {
      // A result already received wins; otherwise the exit itself is the failure.
      void readyWork.then(() =>
        settle(() =>
          reject(new Error(`workload ${spec.workload}: child exited (${signal ?? `code ${code}`}) without a result`)),
        ),
      );
    });
  });
}
