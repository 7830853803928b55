import { z } from 'zod';
import { EMPTY_CLIENT_SETTINGS, parseClientSettings } from '../advisor/client-settings';
import { DEFAULT_CLUSTER, parseBrokerList, parseClusterList, type ClusterConnection } from '../kafka/cluster-settings';
import { SASL_MECHANISMS, resolveKafkaSecurity, type KafkaSecuritySettings } from '../kafka/security';
import { MAX_IDLE_GAP_MS } from '../lag/idle-samples';
import { configPart, setting } from './program-config';
import { Secret } from './secret';

// The shared base of every program's configuration: the parsers the variables use, and the parts several
// programs read (Postgres, the Kafka connection and the other clusters, sampling, the analysis settings, the
// dead-letter topic, the bundled broker and npm test's ports). Each program adds its own parts beside it
// (worker/config.ts, lib/server/dashboard-config.ts, scripts/*/config.ts, ...).

export { Secret };
export {
  childProcessEnv,
  ConfigError,
  configPart,
  defineProgramConfig,
  setting,
  type Environment,
  type ProgramConfig,
} from './program-config';

// --- Parsers -----------------------------------------------------------------------------------------

export const port = (fallback: number) => z.coerce.number().int().min(1).max(65_535).default(fallback);
/** A port base: base+92 the broker, base+93 its controller, base+100 a UI, base+464 and up workers. */
export const portBase = (fallback: number) => z.coerce.number().int().min(1_024).max(60_000).default(fallback);
export const positiveMs = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
export const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
export const topicName = (fallback: string) =>
  z
    .string()
    .regex(/^[a-zA-Z0-9._-]{1,249}$/, 'must be a Kafka topic name (letters, digits, . _ -)')
    .default(fallback);

/** A regular expression, or null when unset. */
export const optionalPattern = z
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
export function jsonSetting<T>(empty: T, parse: (json: string) => T) {
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

/** An http(s) URL, or unset. */
export const optionalHttpUrl = z
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

export const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

/** An optional string held as a Secret (it never reaches a log line or an error message). */
export const optionalSecret = (schema: z.ZodType<string> = z.string()) =>
  schema.optional().transform((value) => (value === undefined ? undefined : new Secret(value)));

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

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/warden';

// --- Shared parts ------------------------------------------------------------------------------------

export const databasePart = configPart({
  id: 'database',
  title: 'Postgres',
  about: "Where samples, quarantines, alerts, the audit and the pipeline's documents are stored.",
  shape: {
    DATABASE_URL: setting(
      z
        .string()
        .default(DEFAULT_DATABASE_URL)
        .refine(
          (value) => /^postgres(ql)?:\/\/[^/]+\/[^/?]+/.test(value),
          'must be a postgresql:// URL with a database name',
        ),
      {
        description:
          "Postgres for samples, quarantines and the pipeline's documents (tests use `<name>_test`, the verify and backtest tools `<name>_verify` and `<name>_backtest`)",
        example: DEFAULT_DATABASE_URL,
      },
    ),
  },
});

/** What the Kafka part derives: the default cluster's brokers and security, and every watched cluster. */
export interface KafkaConnection {
  kafkaBrokers: string[];
  /** KAFKA_BROKERS unset: the bundled broker on WARDEN_KAFKA_PORT (the demo, the bench and npm test start it). */
  usesLocalBroker: boolean;
  /** TLS and SASL of every Kafka client of the default cluster, with the PEM files read (lib/kafka/security.ts). */
  kafkaSecurity: KafkaSecuritySettings;
  /** Every watched cluster: `default` (kafkaBrokers, kafkaSecurity) first, then WARDEN_CLUSTERS in order. */
  clusters: ClusterConnection[];
}

export const kafkaPart = configPart({
  id: 'kafka',
  title: 'Kafka',
  about:
    "The default cluster (the one the worker's pipeline consumes from) with its TLS and SASL, checked at start-up with the PEM files read (see [TLS and SASL](tls-and-sasl.md)), and the other clusters to watch.",
  shape: {
    KAFKA_BROKERS: setting(brokerList, {
      description: 'comma-separated `host:port` list; when set, no local broker is started',
      example: '127.0.0.1:9092,127.0.0.1:9094',
      unset: 'the bundled broker',
    }),
    WARDEN_KAFKA_PORT: setting(port(9092), {
      description: 'port of the bundled broker (its controller uses the next port)',
      example: '9092',
    }),
    KAFKA_CLIENT_ID: setting(z.string().min(1).default('warden'), {
      description: 'kafkajs client id of the worker',
      example: 'warden',
    }),
    KAFKA_SSL: setting(booleanFlag(false), {
      description:
        "TLS to the brokers (see [TLS and SASL](tls-and-sasl.md)); without `KAFKA_SSL_CA_FILE` the system's trusted CAs verify them; needs `KAFKA_BROKERS`",
      example: 'true',
    }),
    KAFKA_SSL_CA_FILE: setting(z.string().optional(), {
      description: "PEM file of the CA(s) that signed the brokers' certificates (replaces the system's CAs)",
      example: '/etc/warden/kafka-ca.pem',
      unset: "the system's CAs",
    }),
    KAFKA_SSL_CERT_FILE: setting(z.string().optional(), {
      description:
        'PEM client certificate (chain) for brokers that require mutual TLS; with `KAFKA_SSL_KEY_FILE`: both or neither',
      example: '/etc/warden/kafka-client.pem',
      unset: 'no client certificate',
    }),
    KAFKA_SSL_KEY_FILE: setting(z.string().optional(), {
      description: 'PEM key of `KAFKA_SSL_CERT_FILE`, for mutual TLS; both or neither',
      example: '/etc/warden/kafka-client.key',
      unset: 'no client certificate',
    }),
    KAFKA_SSL_KEY_PASSWORD: setting(optionalSecret(), {
      description:
        'decrypts an encrypted `KAFKA_SSL_KEY_FILE` (PKCS#8 or traditional OpenSSL PEM); required with one, refused with a plain one; never logged or quoted',
      example: '<the key password>',
      unset: 'the key is not encrypted',
      secret: true,
    }),
    KAFKA_SASL_MECHANISM: setting(
      z.preprocess(
        (value) => (typeof value === 'string' ? value.toLowerCase() : value),
        z.enum(SASL_MECHANISMS, { message: 'must be plain, scram-sha-256 or scram-sha-512' }).optional(),
      ),
      {
        description:
          '`plain`, `scram-sha-256` or `scram-sha-512`; `KAFKA_SASL_USERNAME` and `KAFKA_SASL_PASSWORD` are required with it; needs `KAFKA_BROKERS`',
        example: 'scram-sha-512',
        unset: 'no SASL',
      },
    ),
    KAFKA_SASL_USERNAME: setting(z.string().optional(), {
      description: 'SASL user name, required with `KAFKA_SASL_MECHANISM`',
      example: 'warden',
      unset: 'no SASL',
    }),
    KAFKA_SASL_PASSWORD: setting(optionalSecret(), {
      description: 'SASL password, required with `KAFKA_SASL_MECHANISM`; never logged or quoted in an error',
      example: '<the password>',
      unset: 'no SASL',
      secret: true,
    }),
    WARDEN_CLUSTERS: setting(
      jsonSetting<ClusterConnection[]>([], (json) => parseClusterList(json)),
      {
        description:
          'more clusters to watch besides `default` (the cluster of the `KAFKA_*` variables above): a JSON array of `{name, brokers, ssl, sslCaFile, sslCertFile, sslKeyFile, sslKeyPassword, saslMechanism, saslUsername, saslPassword}`, each checked as the variables above are; see [Several clusters](clusters.md). Its value is never quoted in an error (it may hold passwords)',
        example: '[{"name":"prod-eu","brokers":"kafka-1.eu:9093","ssl":true,"sslCaFile":"/etc/warden/eu-ca.pem"}]',
        unset: 'only `default`',
        secret: true,
      },
    ),
  },
  derive: (values, report): KafkaConnection => {
    const security = resolveKafkaSecurity(values);
    for (const problem of security.problems) report(problem.variable, problem.message);
    const kafkaBrokers = values.KAFKA_BROKERS ?? [`127.0.0.1:${values.WARDEN_KAFKA_PORT}`];
    return {
      kafkaBrokers,
      usesLocalBroker: values.KAFKA_BROKERS === null,
      kafkaSecurity: security.settings,
      clusters: [
        { name: DEFAULT_CLUSTER, brokers: kafkaBrokers, security: security.settings },
        ...values.WARDEN_CLUSTERS,
      ],
    };
  },
});

export const samplingPart = configPart({
  id: 'sampling',
  title: 'Sampling and retention',
  about:
    "The sampler keeps these; the dashboard reads them too, to judge staleness and to say when a chart's empty stretch is past retention.",
  shape: {
    SAMPLE_INTERVAL_MS: setting(positiveMs(5_000), { description: 'sampler round interval', example: '5000' }),
    SAMPLE_IDLE_STORE_MS: setting(z.coerce.number().int().min(0).default(30_000), {
      description:
        'a group unchanged since its last stored round (every partition, every column) is stored again only after this long; charts, statuses and advice read the rounds between as unchanged. `0` stores every round; with `SAMPLE_INTERVAL_MS` at most 60 s in all, so every minute the rollups cover holds a stored round of every group',
      example: '30000',
    }),
    SAMPLER_RETENTION_DAYS: setting(positiveInt(7), {
      description:
        "raw `lag_sample` rows older than this are dropped, a whole UTC day (partition) at a time once all of it is past (1-minute `lag_rollup` rows keep the history); the dashboard reads it too, to say when a chart's empty stretch is past retention",
      example: '7',
    }),
    SAMPLER_ROLLUP_RETENTION_DAYS: setting(positiveInt(90), {
      description: '`lag_rollup`, `rebalance_event` and `sampler_gap` rows older than this are deleted',
      example: '90',
    }),
  },
  derive: (values, report) => {
    // An idle store time at or below the interval never skips a round (every round is that far apart).
    const idleStore = values.SAMPLE_IDLE_STORE_MS;
    if (idleStore > values.SAMPLE_INTERVAL_MS && idleStore + values.SAMPLE_INTERVAL_MS > MAX_IDLE_GAP_MS) {
      report(
        'SAMPLE_IDLE_STORE_MS',
        `plus SAMPLE_INTERVAL_MS (${values.SAMPLE_INTERVAL_MS}) must be at most ${MAX_IDLE_GAP_MS}, so every minute the rollups cover holds a stored round of every group (lib/lag/idle-samples.ts)`,
      );
    }
    return {};
  },
});

export const analysisPart = configPart({
  id: 'analysis',
  title: 'Statuses and advice',
  about:
    "The dashboard shows them; the worker's alerts judge groups by them, so an alert says what the dashboard shows.",
  shape: {
    TIME_LAG_OBJECTIVE_MS: setting(z.coerce.number().int().min(0).default(300_000), {
      description: 'a group whose worst time lag is above this shows `WARN` on the dashboard; `0` sets no objective',
      example: '60000',
    }),
    ADVISOR_RATE_WINDOW_MS: setting(positiveMs(300_000), {
      description: 'window of stored samples the capacity plan and advice measure rates over',
      example: '300000',
    }),
    ADVISOR_TARGET_CATCH_UP_SEC: setting(positiveInt(300), {
      description: "catch-up time the capacity plan's recommended consumer count must meet",
      example: '300',
    }),
    ADVISOR_CLIENT_SETTINGS: setting(jsonSetting(EMPTY_CLIENT_SETTINGS, parseClientSettings), {
      description:
        'JSON by group id or `/pattern/`, e.g. `{"/^etl-/":{"maxPollRecords":2000,"maxPollIntervalMs":900000,"autoOffsetReset":"earliest"}}`: the `max.poll.records` and `max.poll.interval.ms` the poll-budget advice assumes for groups other than Warden\'s, and the `auto.offset.reset` (`earliest` or `latest`) the capacity plan counts a never-committed partition\'s backlog by (the broker cannot tell them); without `autoOffsetReset` such a plan says it is not a promise',
      example: '{"orders-batch":{"maxPollRecords":100},"/^etl-/":{"maxPollIntervalMs":900000}}',
      unset: 'Java client defaults (500 records, 300000 ms), reset policy unknown',
    }),
  },
});

/** The analysis settings as parsed: what lib/groups/analysis-options.ts turns into the analysis options. */
export type AnalysisSettings = z.output<z.ZodObject<typeof analysisPart.shape>>;

export const deadLetterPart = configPart({
  id: 'dead-letters',
  title: 'Dead letters and redrive',
  about: 'The worker writes and redrives the dead-letter topic; the dashboard browses it and requests redrives.',
  shape: {
    WARDEN_DLQ_TOPIC: setting(topicName('warden.demo.dlq'), {
      description:
        "dead-letter topic (original key, value and headers, plus `warden-*` headers naming source and error); the worker writes and redrives it, the dashboard's Dead letters page reads it",
      example: 'warden.demo.dlq',
    }),
    REDRIVE_RATE_PER_SEC: setting(z.coerce.number().min(0.1).max(100_000).default(200), {
      description:
        'records per second a redrive job produces (the dashboard stores it on each job it creates; the worker keeps to it)',
      example: '200',
    }),
    REDRIVE_LEASE_MS: setting(z.coerce.number().int().min(1_000).default(15_000), {
      description:
        'a worker running a redrive renews its hold this often; after a worker dies another takes the job over once the hold lapses',
      example: '15000',
    }),
  },
});

export const localBrokerPart = configPart({
  id: 'bundled-broker',
  title: 'The bundled broker',
  about:
    'The single-node Kafka (scripts/kafka/broker.sh) that the demo, the bench, verify, backtest and npm test start.',
  shape: {
    WARDEN_KAFKA_HOME: setting(z.string().min(1).optional(), {
      description: 'where the bundled broker keeps its jars and data',
      example: '/var/lib/warden/kafka',
      unset: '`.warden/kafka` (each tool its own folder under `.warden/`)',
    }),
    WARDEN_KAFKA_CONTROLLER_PORT: setting(port(9093), {
      description: "the bundled broker's controller port",
      example: '9093',
    }),
  },
});

export const testPortsPart = configPart({
  id: 'test-ports',
  title: "npm test's ports",
  about:
    'npm test, the tests it runs, and the scripts that run beside it (lighthouse, the security scan) take their ports from this base.',
  shape: {
    WARDEN_TEST_PORT_BASE: setting(portBase(19_000), {
      description:
        "`npm test`'s ports: broker base+92, controller base+93, UI base+100, workers base+464 and up for the integration tests; the same offsets from base+800 for the end-to-end suite; `npm run lighthouse` from base+200, `npm run security:scan` base+300",
      example: '19000',
    }),
  },
});
