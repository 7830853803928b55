import { minimalChildEnv } from '../../lib/config/program-config';

// The demo's second service: examples/orders-service, a team's own service that embeds @warden/consumer, run
// beside Warden's own pipeline on a topic, a consumer group and a database of its own. It reaches Warden only
// over Kafka (the control plane's topics under WARDEN_CONTROL_TOPIC_PREFIX): no database credentials of
// Warden's. Pure, apart from the process's PATH and HOME: scripts/demo.ts starts it with these settings.

/** The service's topics and group; the demo's reset clears them like its own. */
export const ORDERS_SERVICE = {
  topic: 'orders',
  partitions: 6,
  resultsTopic: 'orders.results',
  groupId: 'orders-service',
} as const;

/**
 * How the demo runs it: from its TypeScript sources through tsx, in the repository's root, whose tsconfig maps
 * @warden/consumer to packages/consumer/src (kafkajs and pg come from the root's node_modules). So the demo
 * needs no `npm pack` or `npm install`; a team installs the package from its tarball instead
 * (examples/orders-service/README.md).
 */
export const ORDERS_SERVICE_NODE_ARGS = ['--import', 'tsx', 'examples/orders-service/src/main.ts'];

/** The service's own database beside Warden's: `warden` → `warden_orders_service`, same server and user. */
export function ordersServiceDatabaseUrl(wardenDatabaseUrl: string): string {
  const url = new URL(wardenDatabaseUrl);
  url.pathname = `${url.pathname}_orders_service`;
  return url.toString();
}

export interface OrdersServiceSettings {
  kafkaBrokers: string[];
  /** TLS or SASL to the brokers: the example connects in plain text only. */
  secured: boolean;
  wardenDatabaseUrl: string;
  controlTopicPrefix: string;
  /** WARDEN_CONTROL_SIGNING_KEY, revealed; the service then applies only commands Warden signed. */
  controlSigningKey: string | undefined;
  port: number;
  /** The repository's tsconfig.json. */
  tsconfigPath: string;
}

/**
 * The service's whole environment (its own variables, examples/orders-service/README.md, plus PATH, HOME and
 * tsx's tsconfig), or why the demo runs without it.
 */
export function ordersServiceEnv(
  settings: OrdersServiceSettings,
): { env: Record<string, string> } | { skipped: string } {
  if (settings.secured) {
    return {
      skipped:
        'the brokers need TLS or SASL, and examples/orders-service connects in plain text only: the demo runs without it',
    };
  }
  return {
    env: minimalChildEnv({
      TSX_TSCONFIG_PATH: settings.tsconfigPath,
      // kafkajs's note on its default partitioner, once per start: noise in the demo's output.
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      KAFKA_BROKERS: settings.kafkaBrokers.join(','),
      DATABASE_URL: ordersServiceDatabaseUrl(settings.wardenDatabaseUrl),
      ORDERS_TOPIC: ORDERS_SERVICE.topic,
      RESULTS_TOPIC: ORDERS_SERVICE.resultsTopic,
      GROUP_ID: ORDERS_SERVICE.groupId,
      CONTROL_TOPIC_PREFIX: settings.controlTopicPrefix,
      ...(settings.controlSigningKey === undefined ? {} : { CONTROL_SIGNING_KEY: settings.controlSigningKey }),
      PORT: String(settings.port),
    }),
  };
}
