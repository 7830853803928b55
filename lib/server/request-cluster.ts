import type { ClusterConnection } from '../kafka/cluster-settings';
import { ZClusterName } from '../schemas/clusters';
import { DEFAULT_CLUSTER } from '../schemas/values';
import { ApiError, notFound } from './api-error';

/**
 * The cluster a request is about: its `?cluster=` query parameter, or `default` without one (so every URL
 * from before clusters keeps meaning the default cluster). A name that is not URL-safe is a 400 naming the
 * parameter; a name no configured cluster has is a 404 listing the configured ones.
 */
export function requestedCluster(request: Request, clusters: readonly ClusterConnection[]): string {
  return clusterFilter(request, clusters) ?? DEFAULT_CLUSTER;
}

/**
 * `?cluster=` for a route over every cluster unless one is named (the audit log): null without one, else
 * checked as requestedCluster checks it.
 */
export function clusterFilter(request: Request, clusters: readonly ClusterConnection[]): string | null {
  const given = new URL(request.url).searchParams.get('cluster');
  if (given === null || given === '') return null;
  const parsed = ZClusterName.safeParse(given);
  if (!parsed.success)
    throw new ApiError(400, `cluster: ${parsed.error.issues[0]?.message ?? 'is invalid'}`, 'cluster');
  if (!clusters.some((c) => c.name === parsed.data)) {
    throw notFound(`no cluster "${parsed.data}" is configured (configured: ${clusters.map((c) => c.name).join(', ')})`);
  }
  return parsed.data;
}

/** The 404 message of a group `cluster` never sampled (the cluster named unless it is the default). */
export function neverSampled(cluster: string, groupId: string): string {
  return `consumer group "${groupId}" has never been sampled${cluster === DEFAULT_CLUSTER ? '' : ` in cluster "${cluster}"`}`;
}

/** Query parameters without `cluster` (requestedCluster reads it), for the strict query schemas of a route. */
export function queryWithoutCluster(request: Request): Record<string, string> {
  const params = new URL(request.url).searchParams;
  params.delete('cluster');
  return Object.fromEntries(params.entries());
}
