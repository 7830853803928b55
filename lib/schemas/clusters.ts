import { z } from 'zod';

// Cluster names as every layer sees them (the config, the API's ?cluster=, the dashboard's links); free of
// Node modules so the browser bundle can use it.

/** The name of the cluster the single-cluster variables (KAFKA_BROKERS, KAFKA_SSL*, KAFKA_SASL_*) configure. */
export const DEFAULT_CLUSTER = 'default';

/** A URL-safe cluster name: it is a query parameter of the dashboard's and the API's URLs. */
export const CLUSTER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const CLUSTER_NAME_RULE = 'lower-case letters, digits, - and _, starting with a letter or digit, at most 63';

export const ZClusterName = z
  .string()
  .regex(CLUSTER_NAME_PATTERN, `must be a URL-safe cluster name (${CLUSTER_NAME_RULE})`);
