import type { TPartitionDetail } from '@/lib/schemas/groups';
import { retentionSortValue } from './retention-text';

// How the partition table sorts. Unknown values (no commit, no rate, no time lag) sort last in either
// direction, so "worst first" never opens on a page of blanks. Retention, worst first: lost, the soonest deletion,
// unknown, then the rest (retention-text.ts).

export type PartitionSortKey = 'partition' | 'status' | 'lag' | 'timeLag' | 'retention' | 'in' | 'out' | 'owner';
export interface PartitionSort {
  key: PartitionSortKey;
  descending: boolean;
}

/** Worst first when descending: lost, rewound, stopped, stalled, falling behind, OK; a held partition before all but lost. */
const STATUS_WEIGHT: Record<TPartitionDetail['status'], number> = {
  OK: 0,
  WARN: 1,
  STALL: 2,
  STOP: 3,
  REWIND: 4,
  LOST: 6,
};

function valueOf(p: TPartitionDetail, key: PartitionSortKey): number | string | null {
  switch (key) {
    case 'partition':
      return null;
    case 'status':
      return p.quarantine && p.status !== 'LOST' ? 5 : STATUS_WEIGHT[p.status];
    case 'lag':
      return p.lag;
    case 'timeLag':
      return p.timeLag?.ms ?? null;
    case 'retention':
      return retentionSortValue(p.retentionRisk);
    case 'in':
      return p.arrivalRatePerSec;
    case 'out':
      return p.consumptionRatePerSec;
    case 'owner':
      return p.owner?.name ?? null;
  }
}

const byName = (a: TPartitionDetail, b: TPartitionDetail) =>
  a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1;

export function sortPartitions(partitions: readonly TPartitionDetail[], sort: PartitionSort): TPartitionDetail[] {
  const sign = sort.descending ? -1 : 1;
  return [...partitions].sort((a, b) => {
    if (sort.key === 'partition') return sign * byName(a, b);
    const va = valueOf(a, sort.key);
    const vb = valueOf(b, sort.key);
    if (va === null || vb === null) return va === vb ? byName(a, b) : va === null ? 1 : -1;
    const order = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return sign * order || byName(a, b);
  });
}
