import type { Database } from '../db';
import { PREVIEW_MAX_CHARS, ZQuarantinesResponse, type TQuarantinesResponse } from '../schemas/quarantines';
import { partitionKey } from '../analysis/group-analysis';
import { FALLBACK_MAX_POINTS, resolveTimeLag } from '../analysis/partition-analysis';
import type { TTimeLag } from '../schemas/groups';
import { operatorActionJson } from './operator-action-json';
import { groupKey, loadConsumerInstances, partitionOwnerKey } from './consumer-instances';

/**
 * GET /api/quarantine: every held partition, oldest quarantine first, with its record (preview capped again
 * here, whatever the store kept), the partition's log range from the group's newest sample (for seeking), the
 * instance that holds it and the live instance that owns it now (consumer-instances.ts, judged at `nowMs`),
 * the action waiting to be applied, if any, and every action taken on the held record (same offset).
 * The blocking cost reads the newest sample: records behind the commit, and the time lag as the group page
 * shows it (the sampler's stored value, else estimated from the partition's recent samples, as of that sample).
 */
export async function listQuarantines(
  db: Database,
  options: { showPayloads?: boolean; nowMs?: number } = {},
): Promise<TQuarantinesResponse> {
  // WARDEN_PAYLOAD_ACCESS: a caller it keeps from payloads gets the record's place and size, not its key, value or headers.
  const showPayloads = options.showPayloads ?? true;
  const quarantines = await db.partitionQuarantine.findMany({
    orderBy: [{ since: 'asc' }, { cluster: 'asc' }, { groupId: 'asc' }, { topic: 'asc' }, { partition: 'asc' }],
  });
  if (quarantines.length === 0) return { quarantines: [] };
  const groupIds = [...new Set(quarantines.map((q) => q.groupId))];
  const groups = [
    ...new Map(quarantines.map((q) => [groupKey(q), { cluster: q.cluster, groupId: q.groupId }])).values(),
  ];
  const [samples, actions, instancesOf] = await Promise.all([
    db.$queryRaw<
      Array<{
        cluster: string;
        group_id: string;
        topic: string;
        partition: number;
        log_start_offset: bigint;
        log_end_offset: bigint;
        committed_offset: bigint | null;
        lag: bigint | null;
        member_client_id: string | null;
        member_host: string | null;
        time_lag_ms: bigint | null;
        time_lag_kind: string | null;
        exact_time_lag_ms: bigint | null;
        sampled_at: Date;
      }>
    >`
      SELECT q.cluster, q.group_id, q.topic, q.partition, s.log_start_offset, s.log_end_offset, s.committed_offset, s.lag,
        s.member_client_id, s.member_host, s.time_lag_ms, s.time_lag_kind, s.exact_time_lag_ms, s.sampled_at
      FROM unnest(${quarantines.map((q) => q.cluster)}::text[], ${quarantines.map((q) => q.groupId)}::text[],
                  ${quarantines.map((q) => q.topic)}::text[], ${quarantines.map((q) => q.partition)}::int[])
                  AS q(cluster, group_id, topic, partition)
      CROSS JOIN LATERAL (
        SELECT * FROM lag_sample l
        WHERE l.cluster = q.cluster AND l.group_id = q.group_id AND l.topic = q.topic AND l.partition = q.partition
        ORDER BY l.sampled_at DESC LIMIT 1
      ) s`,
    db.operatorAction.findMany({
      where: {
        groupId: { in: groupIds },
        OR: [
          { status: 'pending' },
          ...quarantines.map((q) => ({
            cluster: q.cluster,
            groupId: q.groupId,
            topic: q.topic,
            partition: q.partition,
            quarantineOffset: q.offset,
          })),
        ],
      },
      orderBy: { id: 'asc' },
    }),
    loadConsumerInstances(db, groups, options.nowMs ?? Date.now()),
  ]);
  const sampleOf = new Map(samples.map((s) => [`${s.cluster}\u0000${s.group_id}\u0000${partitionKey(s)}`, s]));
  const timeLags = await Promise.all(
    quarantines.map((q) =>
      blockingTimeLag(db, q, sampleOf.get(`${q.cluster}\u0000${q.groupId}\u0000${partitionKey(q)}`)),
    ),
  );
  const pendingOf = new Map(
    actions
      .filter((a) => a.status === 'pending')
      .map((a) => [`${a.cluster}\u0000${a.groupId}\u0000${partitionKey(a)}`, a]),
  );

  return ZQuarantinesResponse.parse({
    quarantines: quarantines.map((q, index) => {
      const key = `${q.cluster}\u0000${q.groupId}\u0000${partitionKey(q)}`;
      const sample = sampleOf.get(key);
      const action = pendingOf.get(key);
      const preview = q.recordPreview;
      return {
        cluster: q.cluster,
        groupId: q.groupId,
        topic: q.topic,
        partition: q.partition,
        offset: q.offset.toString(),
        reason: q.reason,
        errorClass: q.errorClass,
        since: q.since.toISOString(),
        heldSince: q.heldSince.toISOString(),
        failures: q.failures,
        attempts: q.attempts,
        retrying:
          q.resumedAt !== null && q.resumeActionId !== null
            ? { since: q.resumedAt.toISOString(), actionId: q.resumeActionId.toString() }
            : null,
        blocking: {
          records: sample?.lag === null || sample?.lag === undefined ? null : Number(sample.lag),
          timeLag: timeLags[index],
        },
        history: actions
          .filter(
            (a) =>
              a.cluster === q.cluster &&
              a.groupId === q.groupId &&
              a.topic === q.topic &&
              a.partition === q.partition &&
              a.quarantineOffset === q.offset,
          )
          .map(operatorActionJson),
        record: showPayloads
          ? {
              key: q.recordKey,
              preview: preview === null ? null : preview.slice(0, PREVIEW_MAX_CHARS),
              previewTruncated: preview !== null && (preview.length > PREVIEW_MAX_CHARS || preview.endsWith('…')),
              headers: headersOf(q.recordHeaders),
              timestamp: q.recordTimestamp?.toISOString() ?? null,
              payloadHidden: false,
            }
          : {
              key: null,
              preview: null,
              previewTruncated: false,
              headers: {},
              timestamp: q.recordTimestamp?.toISOString() ?? null,
              payloadHidden: true,
            },
        logStartOffset: sample?.log_start_offset.toString() ?? null,
        logEndOffset: sample?.log_end_offset.toString() ?? null,
        committedOffset: sample?.committed_offset?.toString() ?? null,
        lag: sample?.lag === null || sample?.lag === undefined ? null : Number(sample.lag),
        owner: sample?.member_client_id ? { clientId: sample.member_client_id, host: sample.member_host } : null,
        heldBy: q.heldBy,
        liveOwner: instancesOf.get(groupKey(q))?.liveOwners.get(partitionOwnerKey(q)) ?? null,
        pendingAction: action ? operatorActionJson(action) : null,
      };
    }),
  });
}

/** The stored headers JSON ({ name: preview | null }); anything else is shown as one JSON text. */
function headersOf(json: unknown): Record<string, string | null> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return {};
  return Object.fromEntries(
    Object.entries(json as Record<string, unknown>).map(([name, value]) => [
      name,
      value === null
        ? null
        : typeof value === 'string'
          ? value.slice(0, PREVIEW_MAX_CHARS)
          : JSON.stringify(value).slice(0, PREVIEW_MAX_CHARS),
    ]),
  );
}

function numberOrNull(value: bigint | null): number | null {
  return value === null ? null : Number(value);
}

/**
 * The held partition's time lag as the group page computes it for the same sample: the sampler's stored
 * value when it has one, else the estimate from the partition's newest samples up to that one.
 */
async function blockingTimeLag(
  db: Database,
  q: { cluster: string; groupId: string; topic: string; partition: number },
  sample:
    | {
        sampled_at: Date;
        committed_offset: bigint | null;
        time_lag_ms: bigint | null;
        time_lag_kind: string | null;
        exact_time_lag_ms: bigint | null;
      }
    | undefined,
): Promise<TTimeLag> {
  if (!sample) return { ms: null, kind: 'unknown', basis: 'none' };
  const stored = {
    timeLagMs: numberOrNull(sample.time_lag_ms),
    timeLagKind: sample.time_lag_kind,
    exactTimeLagMs: numberOrNull(sample.exact_time_lag_ms),
  };
  const committed = numberOrNull(sample.committed_offset);
  const nowMs = sample.sampled_at.getTime();
  if (stored.exactTimeLagMs !== null || stored.timeLagKind !== null)
    return resolveTimeLag(stored, [], committed, nowMs);
  const rows = await db.lagSample.findMany({
    where: {
      cluster: q.cluster,
      groupId: q.groupId,
      topic: q.topic,
      partition: q.partition,
      sampledAt: { lte: sample.sampled_at },
    },
    orderBy: { sampledAt: 'desc' },
    take: FALLBACK_MAX_POINTS,
    select: { sampledAt: true, committedOffset: true, logEndOffset: true },
  });
  const history = rows.reverse().map((r) => ({
    atMs: r.sampledAt.getTime(),
    committedOffset: numberOrNull(r.committedOffset),
    logEndOffset: Number(r.logEndOffset),
  }));
  return resolveTimeLag(stored, history, committed, nowMs);
}
