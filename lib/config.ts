import { z } from 'zod';
import { EMPTY_CLIENT_SETTINGS, parseClientSettings } from './advisor/client-settings';
import { EMPTY_ALERT_SETTINGS, parseAlertSettings } from './alerts/alert-settings';
import { parseTokens, parseUsers, type ParseResult } from './auth/credentials';
import { DEFAULT_CLUSTER, parseBrokerList, parseClusterList, type ClusterConnection } from './kafka/cluster-settings';
import { SASL_MECHANISMS, Secret, resolveKafkaSecurity, type KafkaSecuritySettings } from './kafka/security';
import { MAX_IDLE_GAP_MS } from './lag/idle-samples';

// The one place that reads process.env. Every variable of the worker, the UI and the scripts is declared
// here with its default, in the part of the program that reads it (a shared base, then one object per
// program); each program parses only its own parts, so a bad value stops the program that reads it, with a
// message naming the variable, the problem and an example, and no other. Unit tests never read the
// environment: they build options themselves.

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/warden';

const port = (fallback: number) => z.coerce.number().int().min(1).max(65_535).default(fallback);
/** A port base: base+92 the broker, base+93 its controller, base+100 a UI, base+464 and up workers. */
const portBase = (fallback: number) => z.coerce.number().int().min(1_024).max(60_000).default(fallback);
const positiveMs = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const topicName = (fallback: string) =>
  z
    .string()
    .regex(/^[a-zA-Z0-9._-]{1,249}$/, 'must be a Kafka topic name (letters, digits, . _ -)')
    .default(fallback);
const optionalPattern = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null;
    try {
      return new RegExp(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a valid regular expression' });
      return z.NEVER;
    }
  });

/**
 * A JSON setting parsed by its own module: unset or blank is `empty`; a parse error becomes the variable's
 * issue, whose message names the path inside the JSON.
 */
function jsonSetting<T>(empty: T, parse: (json: string) => T) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return empty;
      try {
        return parse(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
}

/** ADVISOR_CLIENT_SETTINGS: JSON keyed by group id or /pattern/ (lib/advisor/client-settings.ts). */
const clientSettingsJson = jsonSetting(EMPTY_CLIENT_SETTINGS, parseClientSettings);

/** ALERT_SETTINGS: JSON keyed by group id, /pattern/ or "*" (lib/alerts/alert-settings.ts). */
const alertSettingsJson = jsonSetting(EMPTY_ALERT_SETTINGS, parseAlertSettings);

/** An http(s) URL, or unset. */
const optionalHttpUrl = z
  .string()
  .optional()
  .refine((value) => {
    if (value === undefined) return true;
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL');

const brokerList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return null;
    const list = parseBrokerList(value);
    if ('problem' in list) {
      ctx.addIssue({ code: 'custom', message: list.problem });
      return z.NEVER;
    }
    return list.brokers;
  });

/** WARDEN_CLUSTERS: clusters besides `default`, each with its brokers, TLS and SASL (lib/kafka/cluster-settings.ts). */
const clusterListJson = jsonSetting<ClusterConnection[]>([], (json) => parseClusterList(json));

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

/** A credential list (WARDEN_USERS, WARDEN_API_TOKENS); its problems never quote the secrets. */
const credentialList = <T>(parse: (value: string) => ParseResult<T>) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return null;
      const parsed = parse(value);
      if (parsed.ok) return parsed.value;
      for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    });

const originList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return [];
    const origins = value.split(',').map((o) => o.trim());
    for (const origin of origins) {
      let canonical: string | null;
      try {
        canonical = new URL(origin).origin;
      } catch {
        canonical = null;
      }
      if (canonical === null || canonical === 'null' || canonical !== origin) {
        ctx.addIssue({
          code: 'custom',
          message: `"${origin}" is not an origin (scheme://host[:port], no path or trailing slash)`,
        });
        return z.NEVER;
      }
    }
    return origins;
  });

const postgresUrl = z
  .string()
  .default(DEFAULT_DATABASE_URL)
  .refine(
    (value) => /^postgres(ql)?:\/\/[^/]+\/[^/?]+/.test(value),
    'must be a postgresql:// URL with a database name',
  );

// --- Each program's variables: one object per part; a program's schema is the base plus its parts. ----

/** Every program: Postgres, the Kafka connection (TLS and SASL checked by lib/kafka/security.ts), the
 * sampling interval the sampler keeps and the dashboard judges staleness by, logging. */
const baseShape = {
  DATABASE_URL: postgresUrl,
  /**
   * Raw lag_sample rows older than this are deleted (after being rolled up into 1-minute lag_rollup rows). The
   * worker enforces it; the dashboard reads it to say when an empty stretch of a chart is past retention.
   */
  SAMPLER_RETENTION_DAYS: positiveInt(7),
  /** lag_rollup, rebalance_event and sampler_gap rows older than this are deleted. */
  SAMPLER_ROLLUP_RETENTION_DAYS: positiveInt(90),
  KAFKA_BROKERS: brokerList,
  WARDEN_KAFKA_PORT: port(9092),
  KAFKA_CLIENT_ID: z.string().min(1).default('warden'),
  /** TLS to the brokers; without KAFKA_SSL_CA_FILE the system's trusted CAs verify them. */
  KAFKA_SSL: booleanFlag(false),
  /** PEM file of the CA(s) that signed the brokers' certificates; replaces the system's CAs. */
  KAFKA_SSL_CA_FILE: z.string().optional(),
  /** PEM client certificate (chain) and its key, for brokers that require mutual TLS; both or neither. */
  KAFKA_SSL_CERT_FILE: z.string().optional(),
  KAFKA_SSL_KEY_FILE: z.string().optional(),
  /** Decrypts an encrypted KAFKA_SSL_KEY_FILE (required with one, refused with a plain one); held as a Secret. */
  KAFKA_SSL_KEY_PASSWORD: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : new Secret(value))),
  /** SASL mechanism; KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required with it. */
  KAFKA_SASL_MECHANISM: z.preprocess(
    (value) => (typeof value === 'string' ? value.toLowerCase() : value),
    z.enum(SASL_MECHANISMS, { message: 'must be plain, scram-sha-256 or scram-sha-512' }).optional(),
  ),
  KAFKA_SASL_USERNAME: z.string().optional(),
  /** Never logged or quoted in an error: held as a Secret that prints as [redacted]. */
  KAFKA_SASL_PASSWORD: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : new Secret(value))),
  /**
   * More clusters to watch besides `default` (the one above): a JSON array of { name, brokers, ssl, sslCaFile,
   * sslCertFile, sslKeyFile, sslKeyPassword, saslMechanism, saslUsername, saslPassword }. Its value is never
   * quoted in an error (it may hold passwords).
   */
  WARDEN_CLUSTERS: clusterListJson,
  SAMPLE_INTERVAL_MS: positiveMs(5_000),
  /**
   * An unchanged group (every partition as last stored) is stored again only after this long; readers treat
   * the rounds between as unchanged (lib/lag/idle-samples.ts). 0 (or anything up to the interval) stores
   * every round. Plus the interval at most 60 s when it skips, so every minute the rollups cover holds a
   * stored round of every group.
   */
  SAMPLE_IDLE_STORE_MS: z.coerce.number().int().min(0).default(30_000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Set by `next start` (production) and `next dev`; any value is accepted, only "production" matters. */
  NODE_ENV: z.string().default('development'),
} as const;

/** The worker (`npm run worker`): the pipeline's group and topics, the consumer core, the sampler, operator
 * commands, its HTTP port, fault injection. */
const workerShape = {
  WARDEN_GROUP_ID: z.string().min(1).default('warden-pipeline'),
  WARDEN_INPUT_TOPIC: topicName('warden.demo.events'),
  WARDEN_RESULTS_TOPIC: topicName('warden.demo.results'),
  WARDEN_INPUT_PARTITIONS: positiveInt(6),
  WORKER_PORT: port(9464),
  /** Interface the worker's HTTP port binds; 0.0.0.0 in a container so Prometheus and probes reach it. */
  WORKER_HOST: z.string().min(1).default('127.0.0.1'),
  SAMPLER_GROUP_INCLUDE: optionalPattern,
  SAMPLER_GROUP_EXCLUDE: optionalPattern,
  /** At most one batch of exact time-lag reads (the record at the committed offset) per this interval. */
  SAMPLER_EXACT_TIME_LAG_INTERVAL_MS: positiveMs(15_000),
  /** Records read per exact time-lag batch, worst estimated time lag first; 0 turns exact reads off. */
  SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS: z.coerce.number().int().min(0).default(200),
  /** Arrival and consumption rates are averaged over this window of samples. */
  SAMPLER_RATE_WINDOW_MS: positiveMs(60_000),
  /** Log-end points kept per partition for time-lag interpolation (the window is points x spacing). */
  SAMPLER_TIME_LAG_POINTS: z.coerce.number().int().min(2).default(60),
  /** Minimum time between two persisted log-end points of a partition. */
  SAMPLER_TIME_LAG_SPACING_MS: positiveMs(30_000),
  /** Longest wait between sampler rounds while the cluster cannot be read (backoff cap). */
  SAMPLER_MAX_BACKOFF_MS: positiveMs(60_000),
  /**
   * 1: one instance per cluster samples every group (a leader lock). More: each cluster's groups are hashed
   * into this many shards, and the live worker instances split the shards evenly (worker/sampler/
   * sampler-shards.ts). Every instance must use the same value: one with another value stands down while
   * it is outranked.
   */
  SAMPLER_SHARDS: z.coerce.number().int().min(1).max(1024).default(1),
  /**
   * Where the statuses' commit windows come from: 'offsets-topic' reads every commit from __consumer_offsets,
   * 'sampled' uses the committed offset of each sampler round, 'auto' reads the topic and falls back per
   * partition where it cannot (no ACL, a managed service that hides it).
   */
  SAMPLER_COMMIT_SOURCE: z
    .enum(['auto', 'offsets-topic', 'sampled'], { message: 'must be auto, offsets-topic or sampled' })
    .default('auto'),
  /** How often a worker relays pending operator actions to the command topics (a Postgres NOTIFY wakes it too). */
  COMMAND_POLL_INTERVAL_MS: positiveMs(1_000),
  /** An operator action no consumer applied within this of its request ends 'expired' (the command's expiry). */
  COMMAND_EXPIRE_AFTER_MS: positiveMs(300_000),
  /**
   * The control plane's topics are `<prefix>.state` and `<prefix>.commands`, on every watched cluster; groups
   * whose id starts with `<prefix>.` are the control plane's own and never sampled. Services that embed
   * @warden/consumer must use the same prefix.
   */
  WARDEN_CONTROL_TOPIC_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]{1,240}$/, 'must be a Kafka topic-name prefix (letters, digits, . _ -; at most 240)')
    .default('warden-control'),
  /**
   * HMAC key the worker signs relayed commands with; consumers configured with the same key refuse unsigned or
   * wrongly signed ones. Unset: commands go unsigned. Never logged or quoted in an error: held as a Secret.
   */
  WARDEN_CONTROL_SIGNING_KEY: z
    .string()
    .min(32, 'must be at least 32 characters (openssl rand -hex 32 makes one)')
    .optional()
    .transform((value) => (value === undefined ? undefined : new Secret(value))),
  /** How often Warden's own pipeline consumer publishes its state on the control plane. */
  WARDEN_CONTROL_STATE_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
  WARDEN_ORDERING: z.enum(['partition', 'key', 'unordered']).default('key'),
  WARDEN_QUARANTINE_POLICY: z.enum(['pause', 'dead-letter']).default('pause'),
  WARDEN_MAX_IN_FLIGHT: positiveInt(64),
  WARDEN_MAX_IN_FLIGHT_PER_PARTITION: positiveInt(16),
  WARDEN_MAX_PENDING_PER_PARTITION: positiveInt(1000),
  /** 'batch': the pipeline's handleBatch (one upsert and one produce request per batch); 'record': handle. */
  WARDEN_HANDLER: z.enum(['batch', 'record']).default('batch'),
  /**
   * A team's handler module (path from the worker's working directory; TypeScript or JavaScript) run instead of
   * the document pipeline on WARDEN_GROUP_ID and WARDEN_INPUT_TOPIC: it exports `admit`, `handle` or
   * `handleBatch`, and optional policies (@warden/consumer's HandlerModule). Its policies win over the
   * WARDEN_* ones. A module that is missing, fails to import or exports the wrong shape stops the start.
   */
  WARDEN_HANDLER_MODULE: z.string().min(1).optional(),
  WARDEN_BATCH_SIZE: positiveInt(100),
  WARDEN_BATCH_LINGER_MS: z.coerce.number().int().min(0).default(0),
  WARDEN_COMMIT_INTERVAL_MS: positiveMs(1_000),
  WARDEN_COMMIT_METADATA: booleanFlag(true),
  /**
   * How long the group coordinator waits without a heartbeat before it counts this worker dead and gives its
   * partitions to the others (kafkajs heartbeats every tenth of it). A killed worker's partitions wait this
   * long for a new owner, and a restarted one waits as long to rejoin. The bounds are the broker's default
   * group.min/max.session.timeout.ms; a broker with narrower bounds refuses the join and names them.
   */
  WARDEN_SESSION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(6_000, 'must be at least 6000 (the broker default group.min.session.timeout.ms)')
    .max(1_800_000, 'must be at most 1800000 (the broker default group.max.session.timeout.ms)')
    .default(30_000),
  WARDEN_STALL_THRESHOLD_MS: positiveMs(30_000),
  WARDEN_STALL_DEAD_LETTER_MS: z.coerce.number().int().min(1).optional(),
  WARDEN_FAULT_TRANSIENT_RATE: z.coerce.number().min(0).max(1).default(0),
  WARDEN_FAULT_LATENCY_MS: z.coerce.number().int().min(0).default(0),
} as const;

/** The dead-letter topic and redrives: the worker writes and redrives, the dashboard browses and requests. */
const deadLetterShape = {
  WARDEN_DLQ_TOPIC: topicName('warden.demo.dlq'),
  /** Records per second a redrive job produces (stored on each job when it is requested). */
  REDRIVE_RATE_PER_SEC: z.coerce.number().min(0.1).max(100_000).default(200),
  /** A redrive job's worker renews its hold this often; another worker takes the job over once it lapses. */
  REDRIVE_LEASE_MS: z.coerce.number().int().min(1_000).default(15_000),
} as const;

/** Statuses, time-lag objective and advice: the dashboard shows them, and the worker's alerts judge by them. */
const analysisShape = {
  /** Group status turns WARN when the worst time lag is above this; 0: no objective. */
  TIME_LAG_OBJECTIVE_MS: z.coerce.number().int().min(0).default(300_000),
  ADVISOR_RATE_WINDOW_MS: positiveMs(300_000),
  ADVISOR_TARGET_CATCH_UP_SEC: positiveInt(300),
  /** max.poll.records / max.poll.interval.ms the advisor assumes per group (the broker cannot tell); unset: Java client defaults. */
  ADVISOR_CLIENT_SETTINGS: clientSettingsJson,
} as const;

/** The dashboard (`npm run dev` / `start`): its port and refresh, access
 * (lib/server/auth/; the dashboard refuses to start without users and a session secret). */
const dashboardShape = {
  UI_PORT: port(3000),
  UI_REFRESH_MS: positiveMs(3_000),
  /** name:role:password-or-scrypt-hash, comma-separated; role viewer or operator. */
  WARDEN_USERS: credentialList(parseUsers),
  /** name:role:token-or-sha256-hash, comma-separated, for `Authorization: Bearer <token>`. */
  WARDEN_API_TOKENS: credentialList(parseTokens),
  /** HMAC key binding each stored session to the user's configured entry; changing it signs everyone out. */
  WARDEN_SESSION_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (openssl rand -base64 32 makes one)')
    .optional(),
  /** A session ends this long after sign-in (absolute, not sliding). */
  WARDEN_SESSION_MAX_AGE_SEC: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(43_200),
  /** A session not used for this long ends (beside the absolute WARDEN_SESSION_MAX_AGE_SEC); exact to a minute. */
  WARDEN_SESSION_IDLE_SEC: z.coerce
    .number()
    .int()
    .min(120)
    .max(30 * 86_400)
    .default(3_600),
  /** Secure flag of the session cookie; auto: when the request came over https (or X-Forwarded-Proto says so). */
  WARDEN_COOKIE_SECURE: z.enum(['auto', 'true', 'false'], { message: 'must be auto, true or false' }).default('auto'),
  /** Origins accepted on POSTs besides the dashboard's own host, e.g. a reverse proxy's public name. */
  WARDEN_ALLOWED_ORIGINS: originList,
  /** Who sees record payloads (keys, values, headers) on the quarantine and dead-letter pages: operators only, every signed-in user, or nobody. */
  WARDEN_PAYLOAD_ACCESS: z
    .enum(['operator', 'viewer', 'none'], { message: 'must be operator, viewer or none' })
    .default('viewer'),
} as const;

/** Alerts (lib/alerts/ evaluates, worker/alerts/ delivers): read by the worker that leads the sampler. */
const alertShape = {
  /** Per-condition `for`, severity, repeat and enabled, by group id, /pattern/ or "*"; unset: the defaults. */
  ALERT_SETTINGS: alertSettingsJson,
  /** Generic JSON webhook receiving the versioned alert payload; unset: no JSON webhook. */
  ALERT_WEBHOOK_URL: optionalHttpUrl,
  /** Slack-compatible incoming webhook; unset: no Slack message. Its URL is a secret: never logged. */
  ALERT_SLACK_WEBHOOK_URL: optionalHttpUrl.transform((value) => (value === undefined ? undefined : new Secret(value))),
  /** Shared secret of the X-Warden-Signature HMAC-SHA256 header on webhook deliveries; unset: unsigned. */
  ALERT_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters (openssl rand -hex 32 makes one)')
    .optional()
    .transform((value) => (value === undefined ? undefined : new Secret(value))),
  /** Base URL of the dashboard, for the links alerts carry. */
  ALERT_DASHBOARD_URL: optionalHttpUrl.default('http://127.0.0.1:3000'),
  /** The default cluster's name in alerts (several Wardens may report to one receiver); other clusters use their own. */
  ALERT_CLUSTER_NAME: z.string().min(1).default('default'),
  /** Delivery attempts per notification and receiver before it ends failed. */
  ALERT_DELIVERY_MAX_ATTEMPTS: positiveInt(20),
  /** One delivery attempt is abandoned after this long. */
  ALERT_DELIVERY_TIMEOUT_MS: positiveMs(5_000),
  /** Retry backoff of deliveries: exponential from this base with equal jitter... */
  ALERT_DELIVERY_BACKOFF_BASE_MS: positiveMs(1_000),
  /** ...capped at this. */
  ALERT_DELIVERY_BACKOFF_MAX_MS: positiveMs(120_000),
} as const;

/** The bundled broker (scripts/kafka/broker.sh) that the demo, bench, verify and npm test start. */
const localBrokerShape = {
  WARDEN_KAFKA_HOME: z.string().min(1).optional(),
  WARDEN_KAFKA_CONTROLLER_PORT: port(9093),
} as const;

/** `npm run bench`, `verify` and `backtest`: their own ports, so they run beside `npm run demo` and `npm test`. */
const benchShape = {
  /** npm run bench's ports: broker base+92, controller base+93. */
  WARDEN_BENCH_PORT_BASE: portBase(20_000),
  /**
   * npm run verify's ports: broker base+92, controller base+93, workers base+464 and up; with --cluster 3
   * brokers base+600..602, controllers base+610..612, proxied listeners base+620..622, proxies base+630..632.
   */
  WARDEN_VERIFY_PORT_BASE: portBase(21_000),
  /** npm run backtest's ports: broker base+92, controller base+93. */
  WARDEN_BACKTEST_PORT_BASE: portBase(22_000),
} as const;

/** `npm run demo` (besides the worker's and the dashboard's settings, which it passes to the two). */
const demoShape = {
  DEMO_RATE_PER_SEC: z.coerce.number().min(0).default(20),
  /** `npm run demo`: 'story' plays hot key, poison record, surge and a second worker; 'steady' only traffic. */
  DEMO_SCENARIO: z.enum(['story', 'steady']).default('story'),
  /** Total rate during the story's slow period; above what the demo workers take, so a backlog builds. */
  DEMO_SURGE_RATE_PER_SEC: z.coerce.number().min(0).default(300),
  /** Extra rate on the story's hot key; above one key lane's capacity, so its partition lags alone. */
  DEMO_HOT_KEY_RATE_PER_SEC: z.coerce.number().min(0).default(15),
  /** Simulated per-record work of the demo's workers (uniform 0..N ms, via WARDEN_FAULT_LATENCY_MS). */
  DEMO_WORKER_LATENCY_MS: z.coerce.number().int().min(0).default(200),
  /** Plays the story N times faster (tests); 1 is the pace an operator can follow. */
  DEMO_STORY_SPEED: z.coerce.number().min(0.1).max(20).default(1),
} as const;

/** `npm test`. */
const testRunnerShape = {
  /** npm test's ports: broker base+92, controller base+93, UI base+100, workers base+464 and up (e2e: from base+800). */
  WARDEN_TEST_PORT_BASE: portBase(19_000),
  /** The API fuzz test's seed (e2e/api-fuzz.spec.ts); a failure prints the one to replay. */
  WARDEN_FUZZ_SEED: z.coerce.number().int().min(0).max(2_147_483_647).default(20_261_201),
} as const;

/** Every program's variables: what the test runner and the tests (which run every program) read. */
export const envSchema = z.object({
  ...baseShape,
  ...workerShape,
  ...deadLetterShape,
  ...alertShape,
  ...analysisShape,
  ...dashboardShape,
  ...localBrokerShape,
  ...demoShape,
  ...benchShape,
  ...testRunnerShape,
});

/** What each program reads; a variable outside its schema is not parsed by it, so it cannot stop it. */
export const PROGRAM_SCHEMAS = {
  base: z.object(baseShape),
  worker: z.object({ ...baseShape, ...workerShape, ...deadLetterShape, ...alertShape, ...analysisShape }),
  dashboard: z.object({ ...baseShape, ...analysisShape, ...dashboardShape, ...deadLetterShape }),
  demo: z.object({
    ...baseShape,
    ...localBrokerShape,
    ...workerShape,
    ...deadLetterShape,
    ...alertShape,
    ...analysisShape,
    ...dashboardShape,
    ...demoShape,
  }),
  bench: z.object({
    ...baseShape,
    ...localBrokerShape,
    ...workerShape,
    ...deadLetterShape,
    ...alertShape,
    ...analysisShape,
    ...dashboardShape,
    ...benchShape,
  }),
  all: envSchema,
};

export type Program = keyof typeof PROGRAM_SCHEMAS;

/** The values every program derives from the base part. */
interface DerivedSettings {
  kafkaBrokers: string[];
  usesLocalBroker: boolean;
  /** TLS and SASL of every Kafka client, with the PEM files read (lib/kafka/security.ts). */
  kafkaSecurity: KafkaSecuritySettings;
  /** Every watched cluster: `default` (kafkaBrokers, kafkaSecurity) first, then WARDEN_CLUSTERS in order. */
  clusters: ClusterConnection[];
}

export type ProgramConfig<P extends Program> = z.infer<(typeof PROGRAM_SCHEMAS)[P]> & DerivedSettings;
export type BaseConfig = ProgramConfig<'base'>;
export type WorkerConfig = ProgramConfig<'worker'>;
export type DashboardConfig = ProgramConfig<'dashboard'>;
export type DemoConfig = ProgramConfig<'demo'>;
export type BenchConfig = ProgramConfig<'bench'>;
/** Every program's settings (the test runner's and the tests'). */
export type WardenConfig = ProgramConfig<'all'>;

/** Example values quoted in start-up errors, so the fix is one copy-paste away. */
const EXAMPLES: Record<keyof z.input<typeof envSchema>, string> = {
  DATABASE_URL: DEFAULT_DATABASE_URL,
  KAFKA_BROKERS: '127.0.0.1:9092,127.0.0.1:9094',
  WARDEN_KAFKA_PORT: '9092',
  KAFKA_CLIENT_ID: 'warden',
  KAFKA_SSL: 'true',
  KAFKA_SSL_CA_FILE: '/etc/warden/kafka-ca.pem',
  KAFKA_SSL_CERT_FILE: '/etc/warden/kafka-client.pem',
  KAFKA_SSL_KEY_FILE: '/etc/warden/kafka-client.key',
  KAFKA_SSL_KEY_PASSWORD: '<the key password>',
  KAFKA_SASL_MECHANISM: 'scram-sha-512',
  KAFKA_SASL_USERNAME: 'warden',
  KAFKA_SASL_PASSWORD: '<the password>',
  WARDEN_CLUSTERS: '[{"name":"prod-eu","brokers":"kafka-1.eu:9093","ssl":true,"sslCaFile":"/etc/warden/eu-ca.pem"}]',
  WARDEN_GROUP_ID: 'warden-pipeline',
  WARDEN_INPUT_TOPIC: 'warden.demo.events',
  WARDEN_RESULTS_TOPIC: 'warden.demo.results',
  WARDEN_INPUT_PARTITIONS: '6',
  WORKER_PORT: '9464',
  WORKER_HOST: '0.0.0.0',
  SAMPLE_INTERVAL_MS: '5000',
  SAMPLE_IDLE_STORE_MS: '30000',
  SAMPLER_GROUP_INCLUDE: '^orders-.*',
  SAMPLER_GROUP_EXCLUDE: '^console-consumer-.*',
  SAMPLER_RETENTION_DAYS: '7',
  SAMPLER_ROLLUP_RETENTION_DAYS: '90',
  SAMPLER_EXACT_TIME_LAG_INTERVAL_MS: '15000',
  SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS: '200',
  SAMPLER_RATE_WINDOW_MS: '60000',
  SAMPLER_TIME_LAG_POINTS: '60',
  SAMPLER_TIME_LAG_SPACING_MS: '30000',
  SAMPLER_MAX_BACKOFF_MS: '60000',
  SAMPLER_SHARDS: '8',
  SAMPLER_COMMIT_SOURCE: 'auto',
  UI_PORT: '3000',
  UI_REFRESH_MS: '3000',
  TIME_LAG_OBJECTIVE_MS: '60000',
  ADVISOR_RATE_WINDOW_MS: '300000',
  ADVISOR_TARGET_CATCH_UP_SEC: '300',
  ADVISOR_CLIENT_SETTINGS: '{"orders-batch":{"maxPollRecords":100},"/^etl-/":{"maxPollIntervalMs":900000}}',
  COMMAND_POLL_INTERVAL_MS: '1000',
  COMMAND_EXPIRE_AFTER_MS: '300000',
  WARDEN_CONTROL_TOPIC_PREFIX: 'warden-control',
  WARDEN_CONTROL_SIGNING_KEY: '<openssl rand -hex 32>',
  WARDEN_CONTROL_STATE_INTERVAL_MS: '5000',
  DEMO_RATE_PER_SEC: '20',
  DEMO_SCENARIO: 'story',
  DEMO_SURGE_RATE_PER_SEC: '300',
  DEMO_HOT_KEY_RATE_PER_SEC: '15',
  DEMO_WORKER_LATENCY_MS: '200',
  DEMO_STORY_SPEED: '1',
  LOG_LEVEL: 'info',
  WARDEN_ORDERING: 'key',
  WARDEN_QUARANTINE_POLICY: 'pause',
  WARDEN_DLQ_TOPIC: 'warden.demo.dlq',
  REDRIVE_RATE_PER_SEC: '200',
  REDRIVE_LEASE_MS: '15000',
  WARDEN_PAYLOAD_ACCESS: 'operator',
  WARDEN_MAX_IN_FLIGHT: '64',
  WARDEN_MAX_IN_FLIGHT_PER_PARTITION: '16',
  WARDEN_MAX_PENDING_PER_PARTITION: '1000',
  WARDEN_HANDLER: 'batch',
  WARDEN_HANDLER_MODULE: 'handlers/orders.ts',
  WARDEN_BATCH_SIZE: '100',
  WARDEN_BATCH_LINGER_MS: '0',
  WARDEN_COMMIT_INTERVAL_MS: '1000',
  WARDEN_COMMIT_METADATA: 'true',
  WARDEN_SESSION_TIMEOUT_MS: '30000',
  WARDEN_STALL_THRESHOLD_MS: '30000',
  WARDEN_STALL_DEAD_LETTER_MS: '600000',
  WARDEN_FAULT_TRANSIENT_RATE: '0.1',
  WARDEN_FAULT_LATENCY_MS: '5',
  WARDEN_KAFKA_HOME: '/var/lib/warden/kafka',
  WARDEN_KAFKA_CONTROLLER_PORT: '9093',
  WARDEN_TEST_PORT_BASE: '19000',
  WARDEN_FUZZ_SEED: '20261201',
  WARDEN_BENCH_PORT_BASE: '20000',
  WARDEN_VERIFY_PORT_BASE: '21000',
  WARDEN_BACKTEST_PORT_BASE: '22000',
  WARDEN_USERS: 'alice:operator:scrypt:32768:8:1:<salt>:<hash>,bob:viewer:<password of 12+ characters>',
  WARDEN_API_TOKENS: 'ci:viewer:sha256:<64 hex digits from npm run auth:hash -- --token>',
  WARDEN_SESSION_SECRET: '<openssl rand -base64 32>',
  WARDEN_SESSION_MAX_AGE_SEC: '43200',
  WARDEN_SESSION_IDLE_SEC: '3600',
  WARDEN_COOKIE_SECURE: 'true',
  WARDEN_ALLOWED_ORIGINS: 'https://warden.example.com',
  NODE_ENV: 'production',
  ALERT_SETTINGS:
    '{"*":{"group-status":{"forMs":60000}},"/^etl-/":{"time-lag-objective":{"severity":"info","repeatMs":0}}}',
  ALERT_WEBHOOK_URL: 'https://alerts.example.com/warden',
  ALERT_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/<id>',
  ALERT_WEBHOOK_SECRET: '<openssl rand -hex 32>',
  ALERT_DASHBOARD_URL: 'https://warden.example.com',
  ALERT_CLUSTER_NAME: 'prod-eu',
  ALERT_DELIVERY_MAX_ATTEMPTS: '20',
  ALERT_DELIVERY_TIMEOUT_MS: '5000',
  ALERT_DELIVERY_BACKOFF_BASE_MS: '1000',
  ALERT_DELIVERY_BACKOFF_MAX_MS: '120000',
};

/** Variables whose values are never quoted in an error message. */
const SECRET_VARIABLES = new Set<string>([
  'WARDEN_USERS',
  'WARDEN_API_TOKENS',
  'WARDEN_SESSION_SECRET',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SSL_KEY_PASSWORD',
  'WARDEN_CLUSTERS',
  'ALERT_SLACK_WEBHOOK_URL',
  'ALERT_WEBHOOK_SECRET',
  'WARDEN_CONTROL_SIGNING_KEY',
]);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid Warden configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses one program's variables (`program`, default every program's) and derives the Kafka settings.
 * Throws ConfigError naming every bad variable of that program; variables of other programs are ignored.
 */
export function parseConfig<P extends Program = 'all'>(
  env: Record<string, string | undefined>,
  program: P = 'all' as P,
): ProgramConfig<P> {
  // Empty strings mean "unset", as in most shells' `VAR= command`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = PROGRAM_SCHEMAS[program].safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) =>
        describeProblem(String(issue.path[0]) as keyof typeof EXAMPLES, cleaned, issue.message),
      ),
    );
  }
  const parsed = result.data as z.infer<(typeof PROGRAM_SCHEMAS)[P]>;
  // Cross-variable checks and the PEM files, once every single variable is valid.
  // An idle store time at or below the interval never skips a round (every round is that far apart).
  const idleStore = parsed.SAMPLE_IDLE_STORE_MS;
  if (idleStore > parsed.SAMPLE_INTERVAL_MS && idleStore + parsed.SAMPLE_INTERVAL_MS > MAX_IDLE_GAP_MS) {
    throw new ConfigError([
      describeProblem(
        'SAMPLE_IDLE_STORE_MS',
        cleaned,
        `plus SAMPLE_INTERVAL_MS (${parsed.SAMPLE_INTERVAL_MS}) must be at most ${MAX_IDLE_GAP_MS}, so every minute the rollups cover holds a stored round of every group (lib/lag/idle-samples.ts)`,
      ),
    ]);
  }
  const security = resolveKafkaSecurity(parsed);
  if (security.problems.length > 0) {
    throw new ConfigError(security.problems.map((p) => describeProblem(p.variable, cleaned, p.message)));
  }
  const kafkaBrokers = parsed.KAFKA_BROKERS ?? [`127.0.0.1:${parsed.WARDEN_KAFKA_PORT}`];
  return {
    ...parsed,
    kafkaBrokers,
    usesLocalBroker: parsed.KAFKA_BROKERS === null,
    kafkaSecurity: security.settings,
    clusters: [
      { name: DEFAULT_CLUSTER, brokers: kafkaBrokers, security: security.settings },
      ...parsed.WARDEN_CLUSTERS,
    ],
  };
}

function describeProblem(
  name: keyof typeof EXAMPLES,
  cleaned: Record<string, string | undefined>,
  message: string,
): string {
  const given = cleaned[name];
  const shown = given === undefined ? 'missing' : SECRET_VARIABLES.has(name) ? '(set; value not shown)' : `"${given}"`;
  return `${name}=${shown}: ${message} (example: ${name}=${EXAMPLES[name] ?? '?'})`;
}

const cached = new Map<Program, unknown>();

/** `program`'s configuration from process.env, parsed once per process. Throws ConfigError naming every bad variable. */
function loadProgramConfig<P extends Program>(program: P): ProgramConfig<P> {
  if (!cached.has(program)) cached.set(program, parseConfig(process.env, program));
  return cached.get(program) as ProgramConfig<P>;
}

/** The worker's configuration (worker/main.ts). */
export const loadWorkerConfig = (): WorkerConfig => loadProgramConfig('worker');
/** The dashboard's configuration (app/, lib/server/). */
export const loadDashboardConfig = (): DashboardConfig => loadProgramConfig('dashboard');
/** `npm run demo`'s configuration: its own, the worker's and the dashboard's, which it hands to both. */
export const loadDemoConfig = (): DemoConfig => loadProgramConfig('demo');
/** `npm run bench` and `npm run verify`: their port bases, the bundled broker, the worker's and the analysis settings. */
export const loadBenchConfig = (): BenchConfig => loadProgramConfig('bench');
/** The base alone: Postgres and Kafka, for the Prisma CLI and `npm run db:migrate`. */
export const loadBaseConfig = (): BaseConfig => loadProgramConfig('base');
/** Every program's configuration: the test runner, the tests and Playwright, which run every program. */
export const loadConfig = (): WardenConfig => loadProgramConfig('all');

/** The environment to hand to a child process, with overrides; the only other read of process.env. */
export function childProcessEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...overrides };
}

/**
 * The Prisma CLI resolves `env("DATABASE_URL")` in the schema even though the driver adapter connects, and
 * with the variable unset it falls back to downloading a native engine (impossible offline). Called from
 * prisma.config.ts so every CLI run (postinstall's generate included) sees the configured URL.
 */
export function provideDatabaseUrlToPrismaCli(): void {
  process.env.DATABASE_URL ??= loadBaseConfig().DATABASE_URL;
}
