import type { DashboardConfig } from './dashboard-config';
import type { Database } from '../db';
import { analysisOptions } from '../groups/analysis-options';
import { groupsPageRequest, pageGroups } from '../groups/groups-page';
import { readSummaryPage, summaryFreshness } from '../groups/stored-group-summaries';
import { DEFAULT_WINDOW_MS, summarizeGroups, type ListGroupsOptions } from '../groups/summarize-groups';
import { ZGroupsResponse, type TGroupsQuery, type TGroupsResponse } from '../schemas/groups';

/** What listGroups needs beyond the analysis settings: when the worker's stored summaries may answer. */
export interface GroupsListing extends ListGroupsOptions {
  /** The stored summaries answer while every asked-for cluster's evaluation ran within this long. */
  summariesCurrentWithinMs: number;
}

/** A cluster's evaluation that has not run for this many sample intervals has stopped (its worker is gone). */
const SUMMARY_CURRENT_INTERVALS = 3;

/** The dashboard's listing settings: the shared analysis settings and the stored summaries' freshness bound. */
export function groupsListing(
  config: Parameters<typeof analysisOptions>[0] & Pick<DashboardConfig, 'SAMPLE_INTERVAL_MS'>,
): GroupsListing {
  return {
    ...analysisOptions(config),
    summariesCurrentWithinMs: Math.max(SUMMARY_CURRENT_INTERVALS * config.SAMPLE_INTERVAL_MS, 15_000),
  };
}

/**
 * GET /api/groups: one page of the recently sampled groups of `clusters`, filtered and ordered as asked. While
 * the worker evaluates every asked-for cluster, its stored summaries answer (sorted, filtered and paged in
 * SQL; at most one round behind the samples); otherwise every group is analysed for this request (no worker
 * runs, or one cluster's evaluation stopped), which is right but costs time in proportion to the fleet.
 */
export async function listGroups(
  db: Database,
  clusters: readonly string[],
  query: TGroupsQuery,
  options: GroupsListing,
): Promise<TGroupsResponse> {
  const now = options.now ?? new Date();
  const request = groupsPageRequest(clusters, query);
  const sampledSince = new Date(now.getTime() - (options.sampledWithinMs ?? DEFAULT_WINDOW_MS));
  const freshness = await summaryFreshness(db, clusters, new Date(now.getTime() - options.summariesCurrentWithinMs));
  if (freshness.current && freshness.summarizedAt) {
    const page = await readSummaryPage(db, request, sampledSince);
    if (page) {
      return ZGroupsResponse.parse({
        generatedAt: now.toISOString(),
        ...page,
        source: 'summaries',
        summarizedAt: freshness.summarizedAt.toISOString(),
      });
    }
  }
  const page = pageGroups(await summarizeGroups(db, clusters, { ...options, now }), request);
  return ZGroupsResponse.parse({ generatedAt: now.toISOString(), ...page, source: 'live', summarizedAt: null });
}
