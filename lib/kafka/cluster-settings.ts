import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CLUSTER_NAME_PATTERN, CLUSTER_NAME_RULE, DEFAULT_CLUSTER } from '../schemas/values';
import { Secret } from '../config/secret';
import {
  SASL_MECHANISMS,
  resolveKafkaSecurity,
  type KafkaSecuritySettings,
  type KafkaSecurityVariables,
} from './security';

// The Kafka clusters Warden watches. The cluster of KAFKA_BROKERS / KAFKA_SSL* / KAFKA_SASL_* is always
// there as `default` (the worker's own pipeline consumes from it); WARDEN_CLUSTERS adds more, each with its
// own brokers, TLS and SASL. Every entry is checked at start-up as the single-cluster variables are (the PEM
// files read, the combinations checked); a problem names the cluster and the entry's key.

export { DEFAULT_CLUSTER };

export interface ClusterConnection {
  name: string;
  brokers: string[];
  /** TLS and SASL, with the PEM files read. */
  security: KafkaSecuritySettings;
}

/** host:port, comma-separated (KAFKA_BROKERS and each cluster's brokers). */
export function parseBrokerList(value: string): { brokers: string[] } | { problem: string } {
  const brokers = value.split(',').map((b) => b.trim());
  for (const broker of brokers) {
    if (!/^[^\s:]+:\d{1,5}$/.test(broker)) return { problem: `"${broker}" is not host:port` };
  }
  return { brokers };
}

// The keys of one WARDEN_CLUSTERS entry and the single-cluster variable each stands for, so the checks of
// lib/kafka/security.ts apply unchanged and their messages can be told in the entry's own keys.
const ENTRY_KEY_OF = {
  KAFKA_BROKERS: 'brokers',
  KAFKA_SSL: 'ssl',
  KAFKA_SSL_CA_FILE: 'sslCaFile',
  KAFKA_SSL_CERT_FILE: 'sslCertFile',
  KAFKA_SSL_KEY_FILE: 'sslKeyFile',
  KAFKA_SSL_KEY_PASSWORD: 'sslKeyPassword',
  KAFKA_SASL_MECHANISM: 'saslMechanism',
  KAFKA_SASL_USERNAME: 'saslUsername',
  KAFKA_SASL_PASSWORD: 'saslPassword',
} as const satisfies Record<keyof KafkaSecurityVariables, string>;

const entrySchema = z
  .object({
    name: z.string({ message: 'is required' }),
    brokers: z.union([z.string(), z.array(z.string())], { message: 'is required (host:port, comma-separated)' }),
    ssl: z.boolean({ message: 'must be true or false' }).default(false),
    sslCaFile: z.string().optional(),
    sslCertFile: z.string().optional(),
    sslKeyFile: z.string().optional(),
    sslKeyPassword: z.string().optional(),
    saslMechanism: z.enum(SASL_MECHANISMS, { message: 'must be plain, scram-sha-256 or scram-sha-512' }).optional(),
    saslUsername: z.string().optional(),
    saslPassword: z.string().optional(),
  })
  .strict();

/**
 * WARDEN_CLUSTERS: a JSON array of `{ "name", "brokers", "ssl", "sslCaFile", "sslCertFile", "sslKeyFile",
 * "sslKeyPassword", "saslMechanism", "saslUsername", "saslPassword" }` (only name and brokers required).
 * Throws an Error naming every problem as `cluster "<name>" <key>: <problem>` (`entry N` while the name is
 * not known). `readFile` is replaceable for unit tests.
 */
export function parseClusterList(
  json: string,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): ClusterConnection[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new Error(`is not JSON (${(error as Error).message})`, { cause: error });
  }
  if (!Array.isArray(value)) throw new Error('must be a JSON array of clusters ([{"name":..., "brokers":...}])');
  const problems: string[] = [];
  const clusters: ClusterConnection[] = [];
  const seen = new Set<string>([DEFAULT_CLUSTER]);
  value.forEach((raw, index) => {
    const rawName = typeof raw === 'object' && raw !== null ? (raw as { name?: unknown }).name : undefined;
    const label = typeof rawName === 'string' ? `cluster "${rawName}"` : `entry ${index}`;
    const parsed = entrySchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path.length > 0 ? issue.path.join('.') : '(entry)';
        problems.push(`${label} ${key}: ${issue.message}`);
      }
      return;
    }
    const entry = parsed.data;
    const before = problems.length;
    const problem = (key: string, message: string) => problems.push(`${label} ${key}: ${message}`);
    if (!CLUSTER_NAME_PATTERN.test(entry.name)) problem('name', `must be URL-safe (${CLUSTER_NAME_RULE})`);
    else if (seen.has(entry.name)) {
      problem(
        'name',
        entry.name === DEFAULT_CLUSTER
          ? 'is taken: "default" is the cluster of KAFKA_BROKERS and the KAFKA_SSL*/KAFKA_SASL_* variables'
          : 'is used twice (cluster names must be unique)',
      );
    }
    seen.add(entry.name);
    const brokerText = Array.isArray(entry.brokers) ? entry.brokers.join(',') : entry.brokers;
    let brokers: string[] = [];
    if (brokerText.trim() === '') problem('brokers', 'is required (host:port, comma-separated)');
    else {
      const list = parseBrokerList(brokerText);
      if ('problem' in list) problem('brokers', list.problem);
      else brokers = list.brokers;
    }
    const security = resolveKafkaSecurity(
      {
        KAFKA_BROKERS: brokers,
        KAFKA_SSL: entry.ssl,
        KAFKA_SSL_CA_FILE: entry.sslCaFile,
        KAFKA_SSL_CERT_FILE: entry.sslCertFile,
        KAFKA_SSL_KEY_FILE: entry.sslKeyFile,
        KAFKA_SSL_KEY_PASSWORD: entry.sslKeyPassword === undefined ? undefined : new Secret(entry.sslKeyPassword),
        KAFKA_SASL_MECHANISM: entry.saslMechanism,
        KAFKA_SASL_USERNAME: entry.saslUsername,
        KAFKA_SASL_PASSWORD: entry.saslPassword === undefined ? undefined : new Secret(entry.saslPassword),
      },
      readFile,
    );
    for (const p of security.problems) problem(ENTRY_KEY_OF[p.variable], inEntryKeys(p.message));
    if (problems.length === before) clusters.push({ name: entry.name, brokers, security: security.settings });
  });
  if (problems.length > 0) throw new Error(problems.join('; '));
  return clusters;
}

/** A message of lib/kafka/security.ts with the variables it names told as the entry's keys. */
function inEntryKeys(message: string): string {
  return message.replace(/\bKAFKA_[A-Z_]+\b/g, (name) =>
    name in ENTRY_KEY_OF ? ENTRY_KEY_OF[name as keyof typeof ENTRY_KEY_OF] : name,
  );
}

/** The cluster named `name`, or an Error naming the configured ones. */
export function clusterNamed(clusters: readonly ClusterConnection[], name: string): ClusterConnection {
  const cluster = clusters.find((c) => c.name === name);
  if (!cluster) {
    throw new Error(`no cluster "${name}" is configured (configured: ${clusters.map((c) => c.name).join(', ')})`);
  }
  return cluster;
}
