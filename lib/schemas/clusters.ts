import { z } from 'zod';
import { CLUSTER_NAME_PATTERN, CLUSTER_NAME_RULE } from './values';

// Cluster names as the config, the API's ?cluster= and the dashboard's links accept them.

export const ZClusterName = z
  .string()
  .regex(CLUSTER_NAME_PATTERN, `must be a URL-safe cluster name (${CLUSTER_NAME_RULE})`);
