import type { Database } from '../db';
import type { ClusterConnection } from '../kafka/cluster-settings';
import type { TAcknowledgement, TSilence, TSilenceRequest } from '../schemas/alerts';
import { DEFAULT_CLUSTER } from '../schemas/values';
import { ApiError, notFound } from './api-error';
import { silenceJson } from './list-alerts';

/**
 * POST /api/alerts/silences: silences a group, a condition or both of one cluster (`default` unless the
 * request names one) for a while. The row is the audit (who, why, until when); it ends by itself at ends_at,
 * and the evaluator of that cluster records the notifications it holds back as `silenced`. A cluster not among
 * `clusters` is a 400 naming the field, and nothing is written.
 */
export async function createSilence(
  db: Database,
  request: TSilenceRequest,
  operator: string,
  clusters: readonly Pick<ClusterConnection, 'name'>[],
  now = new Date(),
): Promise<TSilence> {
  const cluster = request.cluster ?? DEFAULT_CLUSTER;
  if (!clusters.some((c) => c.name === cluster)) {
    throw new ApiError(
      400,
      `cluster: no cluster "${cluster}" is configured (configured: ${clusters.map((c) => c.name).join(', ')})`,
      'cluster',
    );
  }
  const row = await db.alertSilence.create({
    data: {
      cluster,
      groupId: request.groupId,
      condition: request.condition,
      reason: request.reason,
      createdBy: operator,
      createdAt: now,
      endsAt: new Date(now.getTime() + request.durationMinutes * 60_000),
    },
  });
  return silenceJson(row);
}

/**
 * POST /api/alerts/{id}/acknowledge: an operator has it; no more reminders (its resolution is still sent).
 * Only a firing alert can be acknowledged (404 unknown, 409 not firing or already acknowledged); the
 * acknowledgement row is the audit.
 */
export async function acknowledgeAlert(
  db: Database,
  alertId: string,
  operator: string,
  comment: string | undefined,
  now = new Date(),
): Promise<TAcknowledgement> {
  return db.$transaction(async (tx) => {
    const [alert] = await tx.$queryRaw<Array<{ phase: string; acknowledged_by: string | null }>>`
      SELECT phase, acknowledged_by FROM alert WHERE id = ${alertId} FOR UPDATE`;
    if (!alert) throw notFound(`alert "${alertId}" not found`);
    if (alert.phase !== 'firing')
      throw new ApiError(409, `alert is ${alert.phase}, not firing: nothing to acknowledge`);
    if (alert.acknowledged_by !== null)
      throw new ApiError(409, `alert is already acknowledged by ${alert.acknowledged_by}`);
    await tx.alert.update({ where: { id: alertId }, data: { acknowledgedBy: operator, acknowledgedAt: now } });
    await tx.alertAcknowledgement.create({ data: { alertId, by: operator, at: now, comment: comment || null } });
    return { alertId, acknowledgedBy: operator, acknowledgedAt: now.toISOString() };
  });
}
