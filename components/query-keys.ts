import type { TAuditKindFilter } from '@/lib/schemas/access-events';
import type { TLagRange } from '@/lib/schemas/groups';
import type { OverviewRequest } from './overview-view';

// Nested React Query keys (kafka-ui style): invalidating a prefix refreshes everything under it, so an
// operator action invalidates ['groups'], ['quarantines'] and ['audit'] and every view of them refetches.
export const queryKeys = {
  groups: () => ['groups'] as const,
  // An object second, where every other ['groups', …] key has a cluster name: no cluster can collide with it.
  groupsPage: (request: OverviewRequest) => ['groups', { page: request }] as const,
  group: (cluster: string, groupId: string) => ['groups', cluster, groupId] as const,
  groupLag: (cluster: string, groupId: string, range: TLagRange) => ['groups', cluster, groupId, 'lag', range] as const,
  groupAdvice: (cluster: string, groupId: string) => ['groups', cluster, groupId, 'advice'] as const,
  rebalances: (cluster: string, groupId?: string) =>
    groupId === undefined ? (['rebalances', cluster] as const) : (['rebalances', cluster, groupId] as const),
  quarantines: () => ['quarantines'] as const,
  // Under ['quarantines']: an operator action that invalidates the quarantines refreshes the top bar's count too.
  attention: () => ['quarantines', 'attention'] as const,
  audit: () => ['audit'] as const,
  recentActions: () => ['audit', 'recent'] as const,
  /** The Audit page's log: of one kind or all, of one cluster or every cluster. */
  auditLog: (kind: TAuditKindFilter | undefined, cluster: string | undefined) =>
    ['audit', kind ?? 'all', cluster ?? 'all clusters'] as const,
  command: (id: string) => ['commands', id] as const,
  alerts: () => ['alerts'] as const,
  /** The alerts of one cluster, or of every cluster (the overview's and group page's banner share that one). */
  alertsOf: (cluster: string | undefined) =>
    cluster === undefined ? (['alerts'] as const) : (['alerts', cluster] as const),
  deadLetters: (query: string) => ['dead-letters', 'page', query] as const,
  deadLetterCounts: () => ['dead-letters', 'counts'] as const,
  deadLetterMatches: (query: string) => ['dead-letters', 'matches', query] as const,
  redrives: () => ['dead-letters', 'redrives'] as const,
};

/** Actions the Quarantine page shows (GET /api/audit?limit=); from the API, so they survive navigation and reloads. */
export const RECENT_ACTIONS_SHOWN = 10;

/** Rebalances the Rebalances page reads (GET /api/rebalances?limit=); its group filter chooses among them. */
export const REBALANCE_HISTORY_LIMIT = 200;

/** Entries of each list the Audit page reads (GET /api/audit?limit=). */
export const AUDIT_LOG_LIMIT = 500;
