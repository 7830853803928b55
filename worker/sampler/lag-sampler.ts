import { AssignerProtocol, type Admin } from 'kafkajs';
import type { Database } from '../../lib/db';
import { buildLagRows, isGroupSampled, topicsOf, type GroupSnapshot, type LagRow, type TopicWatermarks } from './lag-rows';

export interface LagSamplerOptions {
  admin: Admin;
  db: Database;
  intervalMs: number;
  ownGroupId: string;
  include: RegExp | null;
  exclude: RegExp | null;
  onRoundError?: (error: Error) => void;
}

/**
 * Every `intervalMs`, reads every sampled group's committed offsets and its topics' watermarks and writes
 * one row per group/topic/partition. A failed round is reported and skipped; the next round runs on time.
 * Rounds never overlap.
 */
export class LagSampler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly options: LagSamplerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One round, awaited; used by the loop and by tests. Returns the rows written. */
  async sampleOnce(now = new Date()): Promise<LagRow[]> {
    const { admin, db } = this.options;
    const { groups } = await admin.listGroups();
    const groupIds = groups
      .filter((g) => g.protocolType === 'consumer' || g.protocolType === '')
      .map((g) => g.groupId)
      .filter((id) => isGroupSampled(id, this.options));
    if (groupIds.length === 0) return [];
    const described = await admin.describeGroups(groupIds);
    const snapshots: GroupSnapshot[] = await Promise.all(
      described.groups.map(async (group) => ({
        groupId: group.groupId,
        state: group.state,
        members: group.members.map((member) => ({
          clientId: member.clientId,
          clientHost: member.clientHost,
          assignment: decodeAssignment(member.memberAssignment),
        })),
        committed: await admin.fetchOffsets({ groupId: group.groupId }),
      })),
    );
    const topics = new Set(snapshots.flatMap((s) => [...topicsOf(s)]));
    const watermarks: TopicWatermarks[] = await Promise.all(
      [...topics].map(async (topic) => ({ topic, partitions: await admin.fetchTopicOffsets(topic) })),
    );
    const rows = snapshots.flatMap((snapshot) => buildLagRows(snapshot, watermarks, now));
    if (rows.length > 0) await db.lagSample.createMany({ data: rows });
    return rows;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.running = this.sampleOnce()
        .then(() => undefined)
        .catch((error: Error) => this.options.onRoundError?.(error))
        .finally(() => {
          this.running = null;
          this.schedule(Math.max(0, this.options.intervalMs - (Date.now() - started)));
        });
    }, delayMs);
  }
}

/** A member's assignment, or {} when the group is rebalancing and has none (or it is not a consumer's). */
function decodeAssignment(raw: Buffer): Record<string, number[]> {
  if (!raw || raw.length === 0) return {};
  try {
    return AssignerProtocol.MemberAssignment.decode(raw)?.assignment ?? {};
  } catch {
    return {};
  }
}
