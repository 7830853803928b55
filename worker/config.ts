import { z } from 'zod';
import { EMPTY_ALERT_SETTINGS, parseAlertSettings } from '../lib/alerts/alert-settings';
import {
  analysisPart,
  booleanFlag,
  configPart,
  databasePart,
  deadLetterPart,
  defineProgramConfig,
  jsonSetting,
  kafkaPart,
  optionalHttpUrl,
  optionalPattern,
  optionalSecret,
  port,
  positiveInt,
  positiveMs,
  samplingPart,
  Secret,
  setting,
  topicName,
} from '../lib/config/base';

// The worker's configuration (`npm run worker`): the shared base (Postgres, Kafka, sampling, the analysis
// settings, the dead-letter topic) and its own parts, below. It reads nothing of the dashboard's, the
// demo's, the bench's or npm test's variables, so none of them can stop it.

export const pipelinePart = configPart({
  id: 'worker-pipeline',
  title: "The worker's pipeline consumer",
  about:
    "The consumer group the worker runs (the document pipeline, or a team's handler module) on @warden/consumer, its process and its HTTP port.",
  shape: {
    WARDEN_GROUP_ID: setting(z.string().min(1).default('warden-pipeline'), {
      description: "consumer group of the worker's pipeline",
      example: 'warden-pipeline',
    }),
    WARDEN_INPUT_TOPIC: setting(topicName('warden.demo.events'), {
      description: 'topic the pipeline consumes (created if missing)',
      example: 'warden.demo.events',
    }),
    WARDEN_RESULTS_TOPIC: setting(topicName('warden.demo.results'), {
      description: 'topic the pipeline publishes `stored` / `failed` results to',
      example: 'warden.demo.results',
    }),
    WARDEN_INPUT_PARTITIONS: setting(positiveInt(6), {
      description: 'partitions of the topics the worker creates',
      example: '6',
    }),
    WORKER_PORT: setting(port(9464), {
      description: 'worker HTTP port: `/healthz`, `/readyz`, `/metrics`',
      example: '9464',
    }),
    WORKER_HOST: setting(z.string().min(1).default('127.0.0.1'), {
      description:
        "interface the worker's HTTP port binds (`0.0.0.0` in a container, so Prometheus and probes reach it)",
      example: '0.0.0.0',
    }),
    LOG_LEVEL: setting(z.enum(['debug', 'info', 'warn', 'error']).default('info'), {
      description: 'worker log level (`debug`, `info`, `warn`, `error`)',
      example: 'info',
    }),
    WARDEN_ORDERING: setting(z.enum(['partition', 'key', 'unordered']).default('key'), {
      description:
        '`key`: records of one key in order, keys in parallel; `partition`: one at a time per partition; `unordered`: all in parallel',
      example: 'key',
    }),
    WARDEN_QUARANTINE_POLICY: setting(z.enum(['pause', 'dead-letter']).default('pause'), {
      description:
        'a record that cannot complete: `pause` quarantines its partition (not committed, operator decides), `dead-letter` copies it to the DLQ and moves on',
      example: 'pause',
    }),
    WARDEN_MAX_IN_FLIGHT: setting(positiveInt(64), {
      description: 'records running at once across all partitions',
      example: '64',
    }),
    WARDEN_MAX_IN_FLIGHT_PER_PARTITION: setting(positiveInt(16), {
      description: 'records of one partition running at once',
      example: '16',
    }),
    WARDEN_MAX_PENDING_PER_PARTITION: setting(positiveInt(1000), {
      description:
        'delivered but uncommitted records per partition; at the limit only that partition pauses (resumes below half)',
      example: '1000',
    }),
    WARDEN_HANDLER: setting(z.enum(['batch', 'record']).default('batch'), {
      description:
        '`batch`: the pipeline stores a batch with one multi-row upsert and publishes its results in one request; `record`: one upsert and one result per call',
      example: 'batch',
    }),
    WARDEN_HANDLER_MODULE: setting(z.string().min(1).optional(), {
      description:
        "a team's handler module (path from the worker's working directory, TypeScript or JavaScript) the worker runs instead of the pipeline on `WARDEN_GROUP_ID` / `WARDEN_INPUT_TOPIC`: it exports `admit`, `handle` or `handleBatch` and optional policies (@warden/consumer's HandlerModule), which win over the `WARDEN_*` ones; a missing module, a failed import or a wrong shape stops the start, naming the module and every problem",
      example: 'handlers/orders.ts',
      unset: 'the document pipeline',
    }),
    WARDEN_BATCH_SIZE: setting(positiveInt(100), {
      description:
        'most records in one batch (each still takes an in-flight slot, so `WARDEN_MAX_IN_FLIGHT` caps it too)',
      example: '100',
    }),
    WARDEN_BATCH_LINGER_MS: setting(z.coerce.number().int().min(0).default(0), {
      description: 'how long a batch that is not full waits for more records; `0`: it goes on the next timer turn',
      example: '0',
    }),
    WARDEN_COMMIT_INTERVAL_MS: setting(positiveMs(1_000), {
      description: 'automatic commit interval (a partition holding half its pending budget or more commits at once)',
      example: '1000',
    }),
    WARDEN_COMMIT_METADATA: setting(booleanFlag(true), {
      description: 'commit metadata lists completed offsets above the committed one, so a restart skips them',
      example: 'true',
    }),
    WARDEN_SESSION_TIMEOUT_MS: setting(
      z.coerce
        .number()
        .int()
        .min(6_000, 'must be at least 6000 (the broker default group.min.session.timeout.ms)')
        .max(1_800_000, 'must be at most 1800000 (the broker default group.max.session.timeout.ms)')
        .default(30_000),
      {
        description:
          "the consumer group session: a worker silent this long counts as dead and its partitions move, and a restarted one waits as long to rejoin (kafkajs heartbeats every tenth of it); 6000–1800000, the broker's default bounds (a broker with narrower bounds refuses the join and names them)",
        example: '30000',
      },
    ),
    WARDEN_STALL_THRESHOLD_MS: setting(positiveMs(30_000), {
      description: 'an unfinished record older than this is logged as stalled and flagged on the dashboard',
      example: '30000',
    }),
    WARDEN_STALL_DEAD_LETTER_MS: setting(z.coerce.number().int().min(1).optional(), {
      description: 'dead-letter a record still running after this long (its call is aborted)',
      example: '600000',
      unset: 'never',
    }),
    WARDEN_FAULT_TRANSIENT_RATE: setting(z.coerce.number().min(0).max(1).default(0), {
      description: 'fault injection for demos and verification: share of store writes that fail transiently',
      example: '0.1',
    }),
    WARDEN_FAULT_LATENCY_MS: setting(z.coerce.number().int().min(0).default(0), {
      description: 'fault injection for demos and verification: maximum simulated latency of a store write',
      example: '5',
    }),
  },
});

export const samplerPart = configPart({
  id: 'worker-sampler',
  title: "The worker's lag sampler",
  about: 'Which groups the sampler reads, how it measures time lag and rates, and how instances share the work.',
  shape: {
    SAMPLER_GROUP_INCLUDE: setting(optionalPattern, {
      description: 'regular expression of groups to sample',
      example: '^orders-.*',
      unset: 'all groups',
    }),
    SAMPLER_GROUP_EXCLUDE: setting(optionalPattern, {
      description: "regular expression of groups not to sample (the worker's own group is always sampled)",
      example: '^console-consumer-.*',
      unset: 'none excluded',
    }),
    SAMPLER_EXACT_TIME_LAG_INTERVAL_MS: setting(positiveMs(15_000), {
      description: 'at most one batch of exact time-lag reads (the record at the committed offset) per interval',
      example: '15000',
    }),
    SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS: setting(z.coerce.number().int().min(0).default(200), {
      description: 'records read per exact time-lag batch, worst estimated time lag first; `0` turns exact reads off',
      example: '200',
    }),
    SAMPLER_RATE_WINDOW_MS: setting(positiveMs(60_000), {
      description: 'window over which arrival and consumption rates are averaged',
      example: '60000',
    }),
    SAMPLER_TIME_LAG_POINTS: setting(z.coerce.number().int().min(2).default(60), {
      description: 'log-end points kept per partition for interpolated time lag (window = points x spacing)',
      example: '60',
    }),
    SAMPLER_TIME_LAG_SPACING_MS: setting(positiveMs(30_000), {
      description: 'minimum time between two persisted log-end points of a partition',
      example: '30000',
    }),
    SAMPLER_MAX_BACKOFF_MS: setting(positiveMs(60_000), {
      description: 'longest wait between sampler rounds while the cluster cannot be read',
      example: '60000',
    }),
    SAMPLER_SHARDS: setting(z.coerce.number().int().min(1).max(1024).default(1), {
      description:
        "`1`: one worker instance per cluster samples every group (a leader lock). `2`–`1024`: each cluster's groups are hashed into this many shards and the live instances split the shards evenly, re-covering a dead instance's shards at their next round (see [Sharded sampling](clusters.md#sharded-sampling)); every instance must use the same value (one with another value stands down while it is outranked)",
      example: '8',
    }),
    SAMPLER_COMMIT_SOURCE: setting(
      z
        .enum(['auto', 'offsets-topic', 'sampled'], { message: 'must be auto, offsets-topic or sampled' })
        .default('auto'),
      {
        description:
          'where statuses get their commits: `offsets-topic` reads every commit (repeated ones too) from `__consumer_offsets`, `sampled` uses the committed offset of each sampler round, `auto` reads the topic and falls back to the samples where it cannot be read (no ACL, a managed service that hides it; see [Statuses](statuses.md))',
        example: 'auto',
      },
    ),
  },
});

export const controlPlanePart = configPart({
  id: 'worker-control-plane',
  title: "The worker's control plane",
  about:
    'How operator actions reach the consumers over Kafka (docs/control-protocol.md) and how the worker reads their state.',
  shape: {
    COMMAND_POLL_INTERVAL_MS: setting(positiveMs(1_000), {
      description:
        'how often a worker relays pending operator actions to the command topic of their cluster (a Postgres NOTIFY also wakes it at once)',
      example: '1000',
    }),
    COMMAND_EXPIRE_AFTER_MS: setting(positiveMs(300_000), {
      description:
        'an operator action no consumer applied within this of its request ends `expired` (consumers stop applying it then too)',
      example: '300000',
    }),
    WARDEN_CONTROL_TOPIC_PREFIX: setting(
      z
        .string()
        .regex(/^[a-zA-Z0-9._-]{1,240}$/, 'must be a Kafka topic-name prefix (letters, digits, . _ -; at most 240)')
        .default('warden-control'),
      {
        description:
          "the control plane's topics on every watched cluster: `<prefix>.state` (consumers' reported state) and `<prefix>.commands` (operator commands); groups starting with `<prefix>.` are its own and never sampled. Services embedding `@warden/consumer` use the same prefix",
        example: 'warden-control',
      },
    ),
    WARDEN_CONTROL_SIGNING_KEY: setting(
      optionalSecret(z.string().min(32, 'must be at least 32 characters (openssl rand -hex 32 makes one)')),
      {
        description:
          'HMAC key (32+ characters) the worker signs relayed commands with; a consumer given the same key refuses unsigned or wrongly signed commands; never logged or quoted',
        example: '<openssl rand -hex 32>',
        unset: 'unsigned',
        secret: true,
      },
    ),
    WARDEN_CONTROL_STATE_INTERVAL_MS: setting(z.coerce.number().int().min(100).default(5_000), {
      description:
        "how often the worker's own pipeline consumer publishes its state on the control plane (it also publishes at once after a change)",
      example: '5000',
    }),
  },
});

export const alertsPart = configPart({
  id: 'worker-alerts',
  title: "The worker's alerts",
  about:
    'lib/alerts evaluates, worker/alerts delivers: read by the worker whose sampler leads a cluster (evaluation) and by every worker (delivery). See [Alerts](alerts.md).',
  shape: {
    ALERT_SETTINGS: setting(jsonSetting(EMPTY_ALERT_SETTINGS, parseAlertSettings), {
      description:
        'JSON by group id, `/pattern/` or `"*"`, e.g. `{"*":{"group-status":{"forMs":60000}},"/^etl-/":{"time-lag-objective":{"severity":"info"}}}`: each condition\'s `forMs`, `severity` (`critical`, `warning`, `info`), `repeatMs` (0: no reminders) and `enabled`',
      example:
        '{"*":{"group-status":{"forMs":60000}},"/^etl-/":{"time-lag-objective":{"severity":"info","repeatMs":0}}}',
      unset: 'the defaults in [Alerts](alerts.md)',
    }),
    ALERT_WEBHOOK_URL: setting(optionalHttpUrl, {
      description: 'http(s) URL that receives the versioned JSON alert payload (see [Alerts](alerts.md))',
      example: 'https://alerts.example.com/warden',
      unset: 'none',
    }),
    ALERT_SLACK_WEBHOOK_URL: setting(
      optionalHttpUrl.transform((value) => (value === undefined ? undefined : new Secret(value))),
      {
        description: 'Slack-compatible incoming-webhook URL; a secret: never logged or quoted',
        example: 'https://hooks.slack.com/services/<id>',
        unset: 'none',
        secret: true,
      },
    ),
    ALERT_WEBHOOK_SECRET: setting(
      optionalSecret(z.string().min(16, 'must be at least 16 characters (openssl rand -hex 32 makes one)')),
      {
        description:
          'shared secret (16+ characters) of the `X-Warden-Signature: sha256=<hex>` HMAC-SHA256 header on every delivery',
        example: '<openssl rand -hex 32>',
        unset: 'unsigned',
        secret: true,
      },
    ),
    ALERT_DASHBOARD_URL: setting(optionalHttpUrl.default('http://127.0.0.1:3000'), {
      description: 'dashboard base URL for the links alerts carry',
      example: 'https://warden.example.com',
    }),
    ALERT_CLUSTER_NAME: setting(z.string().min(1).default('default'), {
      description:
        "the name the default cluster's alerts carry to receivers (several Wardens may report to one receiver; every other cluster's alerts carry its configured name)",
      example: 'prod-eu',
    }),
    ALERT_DELIVERY_MAX_ATTEMPTS: setting(positiveInt(20), {
      description:
        'attempts per notification and receiver before it ends `failed` (with the default backoff the retries span at least 13 min, so a receiver down for 10 min loses nothing)',
      example: '20',
    }),
    ALERT_DELIVERY_TIMEOUT_MS: setting(positiveMs(5_000), {
      description: 'one delivery attempt is abandoned after this long',
      example: '5000',
    }),
    ALERT_DELIVERY_BACKOFF_BASE_MS: setting(positiveMs(1_000), {
      description:
        'retry backoff of deliveries: exponential from this base with equal jitter (at least half of each step)',
      example: '1000',
    }),
    ALERT_DELIVERY_BACKOFF_MAX_MS: setting(positiveMs(120_000), {
      description: "the retry backoff's cap",
      example: '120000',
    }),
  },
});

export const workerConfig = defineProgramConfig({
  id: 'worker',
  title: 'The worker',
  command: 'npm run worker',
  module: 'worker/config.ts',
  about:
    'The pipeline consumer, the lag sampler, the control plane, alerts and redrives (worker/main.ts). A bad value stops it at start-up with exit code 2.',
  reads: [databasePart, kafkaPart, samplingPart, analysisPart, deadLetterPart],
  own: [pipelinePart, samplerPart, controlPlanePart, alertsPart],
});

export type WorkerConfig = ReturnType<typeof workerConfig.parse>;

/** The worker's configuration from process.env, parsed once (worker/main.ts). Throws ConfigError. */
export const loadWorkerConfig = (): WorkerConfig => workerConfig.load();
