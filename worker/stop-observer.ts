import type { ConsumerLogger } from './shared/worker-types';

/**
 * Stops one of the worker's observers (sampler, alerts, offsets-topic reader, state writers, commands) within
 * `limitMs`. None of them holds work the consumer must drain or commit, so one that fails or hangs (a query or
 * a kafkajs disconnect stuck after a database outage) is logged and left behind: the caller goes on to drain
 * and commit. Never throws. Resolves with what happened.
 */
export async function stopObserver(
  part: string,
  observer: { stop(): Promise<unknown> } | null | undefined,
  limitMs: number,
  logger: Pick<ConsumerLogger, 'warn'>,
): Promise<'stopped' | 'failed' | 'late' | 'absent'> {
  if (!observer) return 'absent';
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), limitMs);
  });
  const outcome = await Promise.race([
    observer.stop().then(
      () => 'stopped' as const,
      (error: unknown) => {
        logger.warn({ err: error, part }, 'stopping failed; shutdown goes on without it');
        return 'failed' as const;
      },
    ),
    late,
  ]);
  clearTimeout(timer);
  if (outcome === 'late') logger.warn({ part, limitMs }, 'did not stop in time; shutdown goes on without it');
  return outcome;
}
