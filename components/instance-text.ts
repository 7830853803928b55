import { formatCount, formatMillis } from '@/lib/format';
import type { TConsumerInstance, TConsumerInstanceState } from '@/lib/schemas/groups';

// How the Instances card words an instance: its state in words (never colour alone), what the state means for
// it, and the partitions it owns.

export const INSTANCE_STATE_WORDS: Record<TConsumerInstanceState, string> = {
  live: 'Live',
  gone: 'Gone',
  stopped: 'Stopped',
};

/** Why the instance is in its state: "reports every 5 s", "no report for over 15 s", "shut down cleanly". */
export function instanceStateNote(
  instance: Pick<TConsumerInstance, 'state' | 'stateIntervalMs' | 'goneAfterMs'>,
): string {
  if (instance.state === 'live') return `reports every ${formatMillis(instance.stateIntervalMs)}`;
  if (instance.state === 'gone') return `no report for over ${formatMillis(instance.goneAfterMs)}`;
  return 'shut down cleanly';
}

/**
 * Its readiness in words. A live instance's is current ("Ready", "Not ready"); another's is the last it said
 * ("Was ready", "Was not ready"), which may tell why it went.
 */
export function instanceReadiness(instance: Pick<TConsumerInstance, 'state' | 'ready'>): string {
  if (instance.state === 'live') return instance.ready ? 'Ready' : 'Not ready';
  return instance.ready ? 'Was ready' : 'Was not ready';
}

/** "3 partitions", "1 partition", "none". */
export function partitionCountText(count: number): string {
  if (count === 0) return 'none';
  return `${formatCount(count)} partition${count === 1 ? '' : 's'}`;
}

/**
 * The listed partitions per topic, in the order given: "orders-in 0, 1, 2 · audit 3", with "and N more" when
 * the answer listed fewer than `count`.
 */
export function partitionListText(
  partitions: ReadonlyArray<{ topic: string; partition: number }>,
  count: number,
): string {
  const byTopic = new Map<string, number[]>();
  for (const p of partitions) {
    const list = byTopic.get(p.topic) ?? [];
    list.push(p.partition);
    byTopic.set(p.topic, list);
  }
  const text = [...byTopic].map(([topic, list]) => `${topic} ${list.join(', ')}`).join(' · ');
  const more = count - partitions.length;
  return more > 0 ? `${text} and ${formatCount(more)} more` : text;
}

/** "2 live · 1 gone": how many instances are in each state present, live first. */
export function instanceStateCounts(instances: ReadonlyArray<Pick<TConsumerInstance, 'state'>>): string {
  return (['live', 'gone', 'stopped'] as const)
    .map((state) => [state, instances.filter((i) => i.state === state).length] as const)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${formatCount(count)} ${state}`)
    .join(' · ');
}
