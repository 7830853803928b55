import { checkTunableOptions, TUNABLE_OPTION_NAMES, type ConsumerCoreOptions } from './core/consumer-core-options.js';

// A handler module: the part of a consumer's options a team writes, in a module of its own, so that Warden's
// worker can host it (WARDEN_HANDLER_MODULE) instead of the team running a service. The host brings the
// Kafka client, the group, the topics, the dead-letter topic and the control plane.

type HandlerFunctions<T> = Pick<
  ConsumerCoreOptions<T>,
  'admit' | 'handle' | 'handleBatch' | 'classifyError' | 'onPermanentFailure'
>;
type HandlerTunables = Pick<
  ConsumerCoreOptions<unknown>,
  | 'ordering'
  | 'quarantinePolicy'
  | 'maxInFlight'
  | 'maxInFlightPerPartition'
  | 'maxPendingPerPartition'
  | 'maxBufferedBytesPerPartition'
  | 'retry'
  | 'commitIntervalMs'
  | 'stallThresholdMs'
  | 'stallDeadLetterAfterMs'
  | 'batchSize'
  | 'batchLingerMs'
>;

/** What a handler module exports: `admit`, exactly one of `handle` and `handleBatch`, and optional policies. */
export type HandlerModule<T = unknown> = HandlerFunctions<T> & HandlerTunables;

/** Types a handler module's export (`export default defineHandler({ ... })`); returns it unchanged. */
export function defineHandler<T>(handler: HandlerModule<T>): HandlerModule<T> {
  return handler;
}

const REQUIRED_FUNCTIONS = ['admit'] as const;
const OPTIONAL_FUNCTIONS = ['handle', 'handleBatch', 'classifyError', 'onPermanentFailure'] as const;
/** Tunables a host keeps for itself: the commit metadata budget and the stall check cadence are its concern. */
const HOST_TUNABLES = new Set(['metadataMaxBytes', 'stallCheckIntervalMs']);
const ALLOWED = new Set<string>([
  ...REQUIRED_FUNCTIONS,
  ...OPTIONAL_FUNCTIONS,
  ...TUNABLE_OPTION_NAMES.filter((name) => !HOST_TUNABLES.has(name)),
]);
/** Names a module system adds to a module's namespace; never the module author's exports. */
const MODULE_SYSTEM_NAMES = new Set(['default', '__esModule', 'module.exports']);

export type ReadHandlerModule = { ok: true; handler: HandlerModule } | { ok: false; problems: string[] };

/**
 * Reads a loaded module's exports as a handler module: its default export when that is an object (a CommonJS
 * `module.exports` arrives there too), else the named exports. Returns every problem at once (a missing or
 * non-function `admit`, not exactly one of `handle` and `handleBatch`, an unknown export, a policy value the
 * core would refuse), so a host can refuse to start with one message. Never throws.
 */
export function readHandlerModule(exports: unknown): ReadHandlerModule {
  if (typeof exports !== 'object' || exports === null) return { ok: false, problems: ['the module exports nothing'] };
  const namespace = exports as Record<string, unknown>;
  const fromDefault = typeof namespace.default === 'object' && namespace.default !== null;
  const candidate = (fromDefault ? namespace.default : namespace) as Record<string, unknown>;
  const problems: string[] = [];
  for (const name of REQUIRED_FUNCTIONS) {
    if (typeof candidate[name] !== 'function')
      problems.push(`${name} must be a function (got ${describeValue(candidate[name])})`);
  }
  for (const name of OPTIONAL_FUNCTIONS) {
    if (candidate[name] !== undefined && typeof candidate[name] !== 'function')
      problems.push(`${name} must be a function (got ${describeValue(candidate[name])})`);
  }
  const handlers = ['handle', 'handleBatch'].filter((name) => typeof candidate[name] === 'function');
  if (handlers.length !== 1)
    problems.push(`export exactly one of handle and handleBatch (found ${handlers.length === 0 ? 'neither' : 'both'})`);
  const unknown = Object.keys(candidate).filter((name) => !ALLOWED.has(name) && !MODULE_SYSTEM_NAMES.has(name));
  if (unknown.length > 0)
    problems.push(
      `unknown export${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} ` +
        `(a handler module exports ${[...ALLOWED].join(', ')})`,
    );
  problems.push(...checkTunableOptions(candidate));
  if (problems.length > 0) return { ok: false, problems };
  const handler = Object.fromEntries(Object.entries(candidate).filter(([name]) => ALLOWED.has(name)));
  return { ok: true, handler: handler as unknown as HandlerModule };
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  return typeof value;
}
