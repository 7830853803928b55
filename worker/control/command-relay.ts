import {
  commandKey,
  controlTopicNames,
  CONTROL_PROTOCOL_VERSION,
  encodeControlMessage,
  signControlMessage,
  SIGNATURE_HEADER,
  ZOperatorCommand,
  type TOperatorCommand,
} from '@warden/consumer';
import type { Producer } from 'kafkajs';
import type { Database } from '../../lib/db';
import { PeriodicTask } from '../periodic-task';

/** A pending operator_action row as the relay reads it. */
export interface RelayedRow {
  id: bigint;
  command_id: string;
  group_id: string;
  topic: string;
  partition: number;
  action: string;
  seek_offset: bigint | null;
  seek_timestamp: Date | null;
  quarantine_offset: bigint | null;
  reason: string;
  requested_by: string;
  requested_at: Date;
}

/** The operator command of a pending row, or why the row cannot be one (the protocol's schema refuses it). */
export function commandOf(
  row: RelayedRow,
  expireAfterMs: number,
): { ok: true; command: TOperatorCommand } | { ok: false; reason: string } {
  const parsed = ZOperatorCommand.safeParse({
    v: CONTROL_PROTOCOL_VERSION,
    type: 'command',
    id: row.command_id,
    groupId: row.group_id,
    topic: row.topic,
    partition: row.partition,
    action: row.action,
    quarantineOffset: row.quarantine_offset?.toString() ?? null,
    seekOffset: row.seek_offset?.toString() ?? null,
    seekTimestampMs: row.seek_timestamp?.getTime() ?? null,
    reason: row.reason,
    requestedBy: row.requested_by,
    requestedAtMs: row.requested_at.getTime(),
    expiresAtMs: row.requested_at.getTime() + expireAfterMs,
  });
  if (parsed.success) return { ok: true, command: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
}

export interface CommandRelayOptions {
  db: Database;
  /** The cluster whose rows this relay sends, on its command topic. */
  cluster: string;
  topicPrefix: string;
  /** A connected producer of that cluster. */
  producer: Pick<Producer, 'send'>;
  /** Signs every command (HMAC, header `warden-signature`) when set. */
  signingKey?: string;
  /** COMMAND_EXPIRE_AFTER_MS: a command expires this long after it was requested. */
  expireAfterMs: number;
  intervalMs: number;
  /** Only these groups' rows (tests sharing one database); absent: every group of the cluster. */
  groupIds?: readonly string[];
  /** Most rows relayed per transaction. Default 100. */
  batchSize?: number;
  onError?: (error: unknown) => void;
  onRelayed?: (command: TOperatorCommand) => void;
}

/**
 * Puts pending operator actions of one cluster on its command topic (`<prefix>.commands`), where the consumer
 * instances of the group read them and the one that owns the partition applies them. Runs every `intervalMs`
 * and on kick() (the NOTIFY the API sends with a new action).
 *
 * A round claims the rows still waiting for the relay (`status = 'pending' AND relayed_at IS NULL`) with
 * FOR UPDATE SKIP LOCKED, so two workers never relay one row at once, produces their commands (acks=all, keyed
 * `<group>/<topic>/<partition>` so a partition's commands stay in order) and sets relayed_at and expires_at in
 * the same transaction. A produce that succeeds before a failed commit is sent again by the next round: the
 * command id makes that harmless (an instance applies an id at most once). A row already past its expiry is
 * left to the expiry (command-expiry.ts); a row the protocol cannot carry (a name longer than it allows) is
 * 'rejected' with the reason, so it never blocks the partition's next action.
 */
export class CommandRelay {
  private readonly loop: PeriodicTask;
  private readonly commandsTopic: string;

  constructor(private readonly options: CommandRelayOptions) {
    this.commandsTopic = controlTopicNames(options.topicPrefix).commands;
    this.loop = new PeriodicTask(
      async () => {
        // A full batch: more may be waiting.
        if ((await this.relayOnce()) >= (options.batchSize ?? 100)) return 0;
      },
      { intervalMs: options.intervalMs, onError: options.onError },
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** A round now (or right after the current one). */
  kick(): void {
    this.loop.kick();
  }

  /** One round: relays what waits; returns the rows relayed or rejected. */
  async relayOnce(now = new Date()): Promise<number> {
    const { db, cluster, expireAfterMs } = this.options;
    const groupIds = this.options.groupIds ?? null;
    const notBefore = new Date(now.getTime() - expireAfterMs);
    return db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<RelayedRow[]>`
          SELECT id, command_id::text AS command_id, group_id, topic, partition, action, seek_offset, seek_timestamp,
                 quarantine_offset, reason, requested_by, requested_at
          FROM operator_action
          WHERE status = 'pending' AND relayed_at IS NULL AND cluster = ${cluster}
            AND action IN ('resume', 'skip', 'seek') AND requested_at > ${notBefore}
            AND (${groupIds}::text[] IS NULL OR group_id = ANY(${groupIds}::text[]))
          ORDER BY id
          LIMIT ${this.options.batchSize ?? 100}
          FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return 0;
        const commands: TOperatorCommand[] = [];
        for (const row of rows) {
          const built = commandOf(row, expireAfterMs);
          if (built.ok) {
            commands.push(built.command);
            continue;
          }
          await tx.operatorAction.update({
            where: { id: row.id },
            data: {
              status: 'rejected',
              outcome: `cannot be sent to the consumers as a command (${built.reason}); nothing was changed`,
              completedAt: now,
            },
          });
        }
        if (commands.length > 0) {
          await this.options.producer.send({
            topic: this.commandsTopic,
            acks: -1,
            messages: commands.map((command) => this.messageOf(command)),
          });
          await tx.$executeRaw`
            UPDATE operator_action
            SET relayed_at = ${now}, expires_at = requested_at + make_interval(secs => ${expireAfterMs / 1_000})
            WHERE id = ANY(${commands.map((c) => rows.find((r) => r.command_id === c.id)!.id.toString())}::bigint[])`;
          for (const command of commands) this.options.onRelayed?.(command);
        }
        return rows.length;
      },
      // The produce waits for every in-sync replica, which can take a few broker retries.
      { maxWait: 10_000, timeout: 60_000 },
    );
  }

  private messageOf(command: TOperatorCommand) {
    const value = encodeControlMessage(command);
    const key = this.options.signingKey;
    return {
      key: commandKey(command),
      value,
      ...(key === undefined ? {} : { headers: { [SIGNATURE_HEADER]: signControlMessage(value, key) } }),
    };
  }
}
