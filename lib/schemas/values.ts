// The API's fixed values and limits as plain constants, and the rules over them the pages apply. The zod
// schemas beside this file are built on them; the dashboard's browser code imports them from here and never
// from a schema module, so no page loads zod while it starts (components/browser-schemas.ts is loaded with the
// first API answer). Nothing here may import zod or a Node module.

/** A type guard for one of `values`: a URL parameter, a select's choice. */
export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): value is T =>
    (values as readonly string[]).includes(value);

// --- Clusters ----------------------------------------------------------------------------------------------

/** The name of the cluster the single-cluster variables (KAFKA_BROKERS, KAFKA_SSL*, KAFKA_SASL_*) configure. */
export const DEFAULT_CLUSTER = 'default';

/** A URL-safe cluster name: it is a query parameter of the dashboard's and the API's URLs. */
export const CLUSTER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const CLUSTER_NAME_RULE = 'lower-case letters, digits, - and _, starting with a letter or digit, at most 63';

// --- Operator requests ---------------------------------------------------------------------------------------

/** The longest reason an operator action or offset reset takes. */
export const REASON_MAX_CHARS = 500;

// --- GET /api/groups -----------------------------------------------------------------------------------------

/** A group's status (lib/lag/partition-status.ts combineGroupStatus); LOST outranks ERR: records were deleted unread. */
export const GROUP_STATUSES = ['OK', 'WARN', 'ERR', 'QUARANTINED', 'LOST'] as const;

/** How many days of record losses the group's detail lists beside the unacknowledged ones. */
export const RECORD_LOSS_LISTED_DAYS = 7;

/** The overview's orders; each one's natural direction is worst / largest / newest first (names: A to Z). */
export const GROUP_SORT_KEYS = [
  'worst',
  'cluster',
  'group',
  'totalLag',
  'timeLag',
  'quarantined',
  'rebalance',
] as const;
export const SORT_ORDERS = ['natural', 'reversed'] as const;

/** The longest name filter (`q`): a group id is at most 249 characters. */
export const GROUP_FILTER_MAX_CHARS = 249;
/** The largest page (`limit`) and the largest `offset` GET /api/groups takes. */
export const MAX_GROUPS_PAGE = 1_000;
export const MAX_GROUPS_OFFSET = 1_000_000;

// --- GET /api/groups/{groupId}: the instances of a group that report over the control plane -----------------

/**
 * What a consumer instance is doing, judged when the API answers (lib/instances/instance-liveness.ts): `live`
 * (reporting), `gone` (running by its last report, but silent for longer than a few of its report intervals:
 * crashed, hung or cut off) or `stopped` (its last report was a clean stop).
 */
export const INSTANCE_STATES = ['live', 'gone', 'stopped'] as const;

/** The most partitions an instance lists in the group's detail; `partitionCount` counts them all. */
export const INSTANCE_PARTITIONS_LISTED = 500;

// --- GET /api/groups/{groupId}/lag ---------------------------------------------------------------------------

export const LAG_RANGES = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
} as const;

// --- GET /api/audit ------------------------------------------------------------------------------------------

export const ACCESS_EVENT_KINDS = [
  'sign-in',
  'sign-in-failed',
  'sign-in-rate-limited',
  'sign-out',
  'sign-out-all',
] as const;

/**
 * The `kind` filter of GET /api/audit: `actions` (operator actions and resets only), `access` (every access
 * event only), or one access event kind; absent, both lists.
 */
export const AUDIT_KIND_FILTERS = ['actions', 'access', ...ACCESS_EVENT_KINDS] as const;

// --- Operator actions ----------------------------------------------------------------------------------------

/**
 * Stored lifecycle: pending until the owning worker executes it (done/failed/rejected) or nobody does (expired).
 * A resume that is done turns failed_again when its record is held again. An operator attempt the API refused
 * (403, 409) is stored as rejected at once, never pending.
 */
export const ACTION_STATUSES = ['pending', 'done', 'failed', 'failed_again', 'rejected', 'expired'] as const;

/** The three answers a caller waits for, and a resume whose record was held again. */
export const COMMAND_STATES = ['pending', 'applied', 'failed', 'failed_again'] as const;

/** What a stored status means to whoever waits for the action. */
export function commandStateOf(status: (typeof ACTION_STATUSES)[number]): (typeof COMMAND_STATES)[number] {
  if (status === 'pending') return 'pending';
  if (status === 'failed_again') return 'failed_again';
  return status === 'done' ? 'applied' : 'failed';
}

// --- Offset resets -------------------------------------------------------------------------------------------

/** Group states in which no member can overwrite a reset with its next commit. */
export const RESETTABLE_STATES = ['Empty', 'Dead'] as const;
