// How many rebalances a group's rebalance_event rows stand for. Pure.
//
// One rebalance can leave several rows: each Warden member writes its own measured row ('own-consumer',
// the span its consumer stood still), and the sampler writes at most one inferred row ('describe-groups',
// bounded by two samples) for the whole group. Counting rows would count a rebalance of a group with N
// Warden members N + 1 times. The rows are merged by the rule the rebalance history shows them with
// (lib/rebalances/merge-rebalances.ts), and the merged rebalances are counted. That count still only
// undercounts: rebalances no Warden member measured and the sampler missed (two between two rounds that look
// like one, or one that changed nothing) leave no row.

import { clusterRebalanceRows, type RebalanceRowSpan } from '../rebalances/merge-rebalances';

export type RebalanceSpan = RebalanceRowSpan;

export function countRebalances(rows: readonly RebalanceSpan[]): number {
  return clusterRebalanceRows(rows).length;
}
