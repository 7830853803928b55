// Alert conditions and how each one behaves: how long it must hold before it fires (`forMs`, like
// Prometheus `for:`), its severity, how often a reminder repeats while it keeps firing, and whether it is on.
//
// ALERT_SETTINGS (worker/config.ts) holds overrides as JSON, keyed by exact group id, by a regular expression
// written as /pattern/ (flags after the last slash), or by "*" for every group and the cluster-wide
// conditions:
//   {"*": {"sampler-gap": {"forMs": 60000}}, "orders": {"time-lag-objective": {"severity": "critical"}},
//    "/^etl-/": {"group-status": {"forMs": 600000}, "worker-not-ready": {"enabled": false}},
//    "billing": {"retention-risk": {"thresholdMs": 7200000}}}
// For a group, an exact key wins over the first matching pattern (in the JSON's order), which wins over "*",
// which wins over the defaults below; fields a level leaves out come from the next level.

export const ALERT_CONDITIONS = [
  'group-status',
  'time-lag-objective',
  'partition-quarantined',
  'sampler-gap',
  'worker-not-ready',
  'retention-risk',
  'records-lost',
] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

/** Conditions that concern the whole cluster (no group): only "*" configures them. */
export const CLUSTER_CONDITIONS: ReadonlySet<AlertCondition> = new Set(['sampler-gap']);

export const ALERT_SEVERITIES = ['critical', 'warning', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export interface ConditionSettings {
  enabled: boolean;
  /** The condition must hold this long before the alert fires; 0 fires on the first round that sees it. */
  forMs: number;
  severity: AlertSeverity;
  /** A reminder is sent this long after the last notification while the alert keeps firing; 0: never. */
  repeatMs: number;
  /**
   * retention-risk only: it holds while a partition's earliest possible deletion of unread records is below
   * this (ms). null: the larger of 1 h and 10% of the topic's retention.ms (retentionRiskThresholdMs).
   */
  thresholdMs: number | null;
}

/** The default threshold of retention-risk: the larger of 1 h and 10% of the topic's retention.ms. */
export function retentionRiskThresholdMs(settings: Pick<ConditionSettings, 'thresholdMs'>, retentionMs: number | null) {
  if (settings.thresholdMs !== null) return settings.thresholdMs;
  return Math.max(3_600_000, retentionMs !== null && retentionMs > 0 ? retentionMs / 10 : 0);
}

/**
 * Defaults, chosen so that a page means action: a quarantine needs a human at once; a status or time lag
 * must hold for a few sampler rounds so one noisy round does not page; a worker gone for a minute is a crash
 * the supervisor did not fix. Records lost are gone already: at once. A retention risk is a forecast that
 * leaves time to act: a warning after a minute.
 */
export const DEFAULT_CONDITION_SETTINGS: Readonly<Record<AlertCondition, ConditionSettings>> = {
  'group-status': { enabled: true, forMs: 60_000, severity: 'critical', repeatMs: 3_600_000, thresholdMs: null },
  'time-lag-objective': { enabled: true, forMs: 300_000, severity: 'warning', repeatMs: 3_600_000, thresholdMs: null },
  'partition-quarantined': { enabled: true, forMs: 0, severity: 'critical', repeatMs: 3_600_000, thresholdMs: null },
  'sampler-gap': { enabled: true, forMs: 30_000, severity: 'critical', repeatMs: 3_600_000, thresholdMs: null },
  'worker-not-ready': { enabled: true, forMs: 60_000, severity: 'critical', repeatMs: 3_600_000, thresholdMs: null },
  'retention-risk': { enabled: true, forMs: 60_000, severity: 'warning', repeatMs: 3_600_000, thresholdMs: null },
  'records-lost': { enabled: true, forMs: 0, severity: 'critical', repeatMs: 3_600_000, thresholdMs: null },
};

/** Conditions that take a thresholdMs. */
const THRESHOLD_CONDITIONS: ReadonlySet<AlertCondition> = new Set(['retention-risk']);

type PartialConditions = Partial<Record<AlertCondition, Partial<ConditionSettings>>>;

export interface AlertSettingsTable {
  all: PartialConditions;
  exact: ReadonlyMap<string, PartialConditions>;
  patterns: ReadonlyArray<{ key: string; pattern: RegExp; conditions: PartialConditions }>;
}

export const EMPTY_ALERT_SETTINGS: AlertSettingsTable = { all: {}, exact: new Map(), patterns: [] };

const FIELDS = ['enabled', 'forMs', 'severity', 'repeatMs', 'thresholdMs'] as const;

/**
 * Parses ALERT_SETTINGS. Throws an Error whose message names the path of the offending value inside the JSON
 * (`"orders"."group-status".forMs`): not JSON, not an object, a bad pattern, an unknown condition or field, a
 * negative or fractional duration, an unknown severity, a cluster-wide condition under a group key, a
 * thresholdMs on a condition without one.
 */
export function parseAlertSettings(json: string): AlertSettingsTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('must be JSON: an object keyed by group id, /pattern/ or "*"');
  }
  if (!isObject(parsed)) throw new Error('must be a JSON object keyed by group id, /pattern/ or "*"');
  const table: {
    all: PartialConditions;
    exact: Map<string, PartialConditions>;
    patterns: AlertSettingsTable['patterns'][number][];
  } = {
    all: {},
    exact: new Map(),
    patterns: [],
  };
  for (const [key, value] of Object.entries(parsed)) {
    const conditions = parseConditions(key, value);
    if (key === '*') {
      table.all = conditions;
      continue;
    }
    for (const condition of Object.keys(conditions) as AlertCondition[]) {
      if (CLUSTER_CONDITIONS.has(condition))
        throw new Error(`"${key}"."${condition}": a cluster-wide condition is configured under "*" only`);
    }
    const slash = key.lastIndexOf('/');
    if (key.startsWith('/') && slash > 0) {
      try {
        // g and y would make test() stateful across groups: dropped.
        const pattern = new RegExp(key.slice(1, slash), key.slice(slash + 1).replace(/[gy]/g, ''));
        table.patterns.push({ key, pattern, conditions });
      } catch {
        throw new Error(`"${key}" is not a valid /pattern/flags regular expression`);
      }
    } else {
      table.exact.set(key, conditions);
    }
  }
  return table;
}

function parseConditions(key: string, value: unknown): PartialConditions {
  if (!isObject(value)) throw new Error(`"${key}" must map to an object such as {"group-status": {"forMs": 60000}}`);
  const conditions: PartialConditions = {};
  for (const [condition, fields] of Object.entries(value)) {
    if (!(ALERT_CONDITIONS as readonly string[]).includes(condition))
      throw new Error(`"${key}": unknown condition "${condition}" (known: ${ALERT_CONDITIONS.join(', ')})`);
    const path = `"${key}"."${condition}"`;
    if (!isObject(fields)) throw new Error(`${path} must be an object such as {"forMs": 60000}`);
    const settings: Partial<ConditionSettings> = {};
    for (const [field, given] of Object.entries(fields)) {
      if (!(FIELDS as readonly string[]).includes(field))
        throw new Error(`${path}: unknown field "${field}" (known: ${FIELDS.join(', ')})`);
      if (field === 'enabled') {
        if (typeof given !== 'boolean') throw new Error(`${path}.enabled must be true or false`);
        settings.enabled = given;
      } else if (field === 'severity') {
        if (!(ALERT_SEVERITIES as readonly unknown[]).includes(given))
          throw new Error(
            `${path}.severity must be one of ${ALERT_SEVERITIES.join(', ')}, got ${JSON.stringify(given)}`,
          );
        settings.severity = given as AlertSeverity;
      } else {
        if (field === 'thresholdMs' && !THRESHOLD_CONDITIONS.has(condition as AlertCondition))
          throw new Error(`${path}.thresholdMs: only ${[...THRESHOLD_CONDITIONS].join(', ')} takes a threshold`);
        if (typeof given !== 'number' || !Number.isInteger(given) || given < 0)
          throw new Error(`${path}.${field} must be a duration in ms (an integer >= 0), got ${JSON.stringify(given)}`);
        settings[field as 'forMs' | 'repeatMs' | 'thresholdMs'] = given;
      }
    }
    conditions[condition as AlertCondition] = settings;
  }
  return conditions;
}

/** The settings of `condition` for `groupId` (null: a cluster-wide condition), every level merged. */
export function resolveConditionSettings(
  table: AlertSettingsTable,
  condition: AlertCondition,
  groupId: string | null,
): ConditionSettings {
  const group =
    groupId === null
      ? undefined
      : (table.exact.get(groupId) ?? table.patterns.find((p) => p.pattern.test(groupId))?.conditions);
  return { ...DEFAULT_CONDITION_SETTINGS[condition], ...table.all[condition], ...group?.[condition] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
