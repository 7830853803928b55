// The service's settings, read once from the environment at start. Every problem is reported at once, by the
// variable's name, before anything connects.

export interface ServiceConfig {
  kafkaBrokers: string[];
  ordersTopic: string;
  resultsTopic: string;
  groupId: string;
  databaseUrl: string;
  controlTopicPrefix: string;
  /** HMAC key Warden's worker signs commands with; null: commands are accepted unsigned. */
  controlSigningKey: string | null;
  /** Port of the HTTP endpoint that answers GET /readyz. */
  port: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Kafka's rule for a topic name (and what this service accepts for a group id and a prefix). */
const KAFKA_NAME = /^[a-zA-Z0-9._-]+$/;
const MAX_TOPIC_LENGTH = 249;
/** The control plane adds `.commands` to the prefix, and the result must still be a topic name. */
const MAX_PREFIX_LENGTH = MAX_TOPIC_LENGTH - '.commands'.length;
const DEFAULT_PORT = 8080;
/** Warden's worker refuses a shorter signing key, so a shorter one here could never match it. */
const MIN_SIGNING_KEY_LENGTH = 32;

/** Reads and validates the settings; throws a ConfigError naming every invalid or missing variable. */
export function readConfig(env: NodeJS.ProcessEnv): ServiceConfig {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const required = (name: string, example: string): string => {
    const value = text(name);
    if (value === undefined) problems.push(`${name} is required (e.g. ${name}=${example})`);
    return value ?? '';
  };
  const kafkaName = (name: string, fallback: string, maxLength = MAX_TOPIC_LENGTH): string => {
    const value = text(name) ?? fallback;
    if (value.length > maxLength || !KAFKA_NAME.test(value))
      problems.push(`${name} must be 1-${maxLength} characters of a-z, A-Z, 0-9, '.', '_' and '-' (got "${value}")`);
    return value;
  };

  const brokersText = required('KAFKA_BROKERS', '127.0.0.1:9092');
  const kafkaBrokers = brokersText === '' ? [] : brokersText.split(',').map((broker) => broker.trim());
  for (const broker of kafkaBrokers) {
    const match = /^(.+):(\d{1,5})$/.exec(broker);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65_535)
      problems.push(`KAFKA_BROKERS must be a comma-separated list of host:port (got "${broker}")`);
  }

  const ordersTopic = kafkaName('ORDERS_TOPIC', 'orders');
  const resultsTopic = kafkaName('RESULTS_TOPIC', 'orders.results');
  if (ordersTopic === resultsTopic)
    problems.push(`RESULTS_TOPIC must differ from ORDERS_TOPIC (both "${ordersTopic}")`);
  const groupId = kafkaName('GROUP_ID', 'orders-service');

  const databaseUrl = required('DATABASE_URL', 'postgresql://user:password@127.0.0.1:5432/orders');
  if (databaseUrl !== '' && !/^postgres(ql)?:\/\//.test(databaseUrl))
    problems.push('DATABASE_URL must be a postgresql:// connection URL');

  const controlTopicPrefix = kafkaName('CONTROL_TOPIC_PREFIX', 'warden-control', MAX_PREFIX_LENGTH);
  const controlSigningKey = env.CONTROL_SIGNING_KEY === undefined ? null : env.CONTROL_SIGNING_KEY;
  if (controlSigningKey !== null && controlSigningKey.length < MIN_SIGNING_KEY_LENGTH)
    problems.push(
      `CONTROL_SIGNING_KEY must be at least ${MIN_SIGNING_KEY_LENGTH} characters, the key Warden's worker signs ` +
        'with (WARDEN_CONTROL_SIGNING_KEY); unset it to accept unsigned commands',
    );

  const portText = text('PORT') ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65_535)
    problems.push(`PORT must be an integer from 1 to 65535 (got "${portText}")`);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    kafkaBrokers,
    ordersTopic,
    resultsTopic,
    groupId,
    databaseUrl,
    controlTopicPrefix,
    controlSigningKey,
    port,
  };
}
