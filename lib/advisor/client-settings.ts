// What the advisor assumes about a group's client where the broker cannot tell: its batch size
// (max.poll.records), the longest time it may spend between polls (max.poll.interval.ms) and where it starts a
// partition it never committed (auto.offset.reset). None is visible in describeGroups, so every value here is
// an assumption, and the advice says so. The reset policy has no default: the Java client's is latest, but
// kafkajs's fromBeginning and many deployments say earliest, so a guess would make the plan promise.
//
// ADVISOR_CLIENT_SETTINGS (lib/config/base.ts) holds overrides as JSON, keyed by exact group id or by a regular
// expression written as /pattern/ (flags after the last slash):
//   {"orders-batch": {"maxPollRecords": 100, "autoOffsetReset": "earliest"},
//    "/^etl-/": {"maxPollRecords": 2000, "maxPollIntervalMs": 900000}}
// An exact key wins; otherwise the first matching pattern in the JSON's order. Fields a match leaves out keep
// the Java client's defaults.

/** The Java client's defaults (KIP-41: max.poll.records 500; KIP-62: max.poll.interval.ms 300000). */
export const JAVA_CLIENT_DEFAULTS = { maxPollRecords: 500, maxPollIntervalMs: 300_000 } as const;

export type OffsetResetPolicy = 'earliest' | 'latest';

export const OFFSET_RESET_POLICIES: readonly OffsetResetPolicy[] = ['earliest', 'latest'];

export interface ClientSettings {
  maxPollRecords?: number;
  maxPollIntervalMs?: number;
  autoOffsetReset?: OffsetResetPolicy;
}

export interface ClientSettingsTable {
  exact: ReadonlyMap<string, ClientSettings>;
  patterns: ReadonlyArray<{ key: string; pattern: RegExp; settings: ClientSettings }>;
}

export interface ResolvedClientSettings {
  maxPollRecords: number;
  maxPollIntervalMs: number;
  /** Where each number came from, in words, e.g. "max.poll.records 500 (Java client default)". */
  origin: { maxPollRecords: string; maxPollIntervalMs: string };
  /** auto.offset.reset when configured for the group; null: not configured, so unknown. */
  autoOffsetReset: { policy: OffsetResetPolicy; origin: string } | null;
}

export const EMPTY_CLIENT_SETTINGS: ClientSettingsTable = { exact: new Map(), patterns: [] };

const FIELDS = ['maxPollRecords', 'maxPollIntervalMs'] as const;
const KNOWN_FIELDS = [...FIELDS, 'autoOffsetReset'] as const;

/**
 * Parses ADVISOR_CLIENT_SETTINGS. Throws an Error whose message names the offending key or field: not JSON,
 * not an object, a bad pattern, an unknown field, a number that is not a positive integer, or an
 * autoOffsetReset other than "earliest" or "latest".
 */
export function parseClientSettings(json: string): ClientSettingsTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('must be JSON: an object keyed by group id or /pattern/');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('must be a JSON object keyed by group id or /pattern/');
  const exact = new Map<string, ClientSettings>();
  const patterns: Array<{ key: string; pattern: RegExp; settings: ClientSettings }> = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error(`"${key}" must map to an object such as {"maxPollRecords": 100}`);
    const settings: ClientSettings = {};
    for (const [field, number] of Object.entries(value)) {
      if (!(KNOWN_FIELDS as readonly string[]).includes(field))
        throw new Error(`"${key}": unknown field "${field}" (known: ${KNOWN_FIELDS.join(', ')})`);
      if (field === 'autoOffsetReset') {
        if (!OFFSET_RESET_POLICIES.includes(number as OffsetResetPolicy))
          throw new Error(`"${key}".autoOffsetReset must be "earliest" or "latest", got ${JSON.stringify(number)}`);
        settings.autoOffsetReset = number as OffsetResetPolicy;
        continue;
      }
      if (typeof number !== 'number' || !Number.isInteger(number) || number < 1)
        throw new Error(`"${key}".${field} must be a positive integer, got ${JSON.stringify(number)}`);
      settings[field as (typeof FIELDS)[number]] = number;
    }
    const slash = key.lastIndexOf('/');
    if (key.startsWith('/') && slash > 0) {
      try {
        // g and y would make test() stateful across groups: dropped.
        patterns.push({
          key,
          pattern: new RegExp(key.slice(1, slash), key.slice(slash + 1).replace(/[gy]/g, '')),
          settings,
        });
      } catch {
        throw new Error(`"${key}" is not a valid /pattern/flags regular expression`);
      }
    } else {
      exact.set(key, settings);
    }
  }
  return { exact, patterns };
}

/** The settings assumed for `groupId`, each number with where it came from. */
export function resolveClientSettings(table: ClientSettingsTable, groupId: string): ResolvedClientSettings {
  const exact = table.exact.get(groupId);
  const match =
    exact !== undefined ? { key: groupId, settings: exact } : table.patterns.find((p) => p.pattern.test(groupId));
  const pick = (field: (typeof FIELDS)[number], name: string) => {
    const configured = match?.settings[field];
    return configured !== undefined
      ? { value: configured, origin: `${name} ${configured} (ADVISOR_CLIENT_SETTINGS "${match!.key}")` }
      : { value: JAVA_CLIENT_DEFAULTS[field], origin: `${name} ${JAVA_CLIENT_DEFAULTS[field]} (Java client default)` };
  };
  const records = pick('maxPollRecords', 'max.poll.records');
  const interval = pick('maxPollIntervalMs', 'max.poll.interval.ms');
  const reset = match?.settings.autoOffsetReset;
  return {
    maxPollRecords: records.value,
    maxPollIntervalMs: interval.value,
    origin: { maxPollRecords: records.origin, maxPollIntervalMs: interval.origin },
    autoOffsetReset:
      reset === undefined
        ? null
        : { policy: reset, origin: `auto.offset.reset ${reset} (ADVISOR_CLIENT_SETTINGS "${match!.key}")` },
  };
}
