import type { Database } from '../db';
import {
  caughtUpThreshold,
  predictionError,
  resolvePrediction,
  type RecordedPrediction,
  type RoundLag,
} from '../advisor/track-record';
import type { TGroupAdvice, TTrackRecordEntry } from '../schemas/advice';

/**
 * A plan is recorded at most once per sampler round (unique per group and sample time, so concurrent page
 * loads insert it once), and only when it says something new: another consumer count, or the last record is
 * older than this. A page polled every few seconds would otherwise fill the record with one plan.
 */
export const PREDICTION_SPACING_MS = 300_000;
/** Predictions the card shows, newest first. */
export const TRACK_RECORD_LENGTH = 5;

/** Records the plan in `advice` when it is new (see PREDICTION_SPACING_MS); no plan, nothing recorded. */
export async function recordPrediction(db: Database, advice: Omit<TGroupAdvice, 'trackRecord'>): Promise<void> {
  const plan = advice.plan;
  if (advice.planState !== 'planned' || plan === null) return;
  const predictedAt = new Date(advice.sampledAt);
  const last = await db.advicePrediction.findFirst({
    where: { cluster: advice.cluster, groupId: advice.groupId },
    orderBy: { predictedAt: 'desc' },
    select: { predictedAt: true, predictedConsumers: true },
  });
  if (
    last &&
    last.predictedConsumers === plan.recommendedConsumers &&
    predictedAt.getTime() - last.predictedAt.getTime() < PREDICTION_SPACING_MS
  )
    return;
  const backlog = advice.partitions.reduce((sum, p) => sum + (p.backlog ?? 0), 0);
  const arrivalRatePerSec = advice.partitions.reduce((sum, p) => sum + (p.arrivalRatePerSec ?? 0), 0);
  await db.advicePrediction.upsert({
    where: { cluster_groupId_predictedAt: { cluster: advice.cluster, groupId: advice.groupId, predictedAt } },
    update: {},
    create: {
      cluster: advice.cluster,
      groupId: advice.groupId,
      predictedAt,
      consumersThen: advice.consumers,
      predictedConsumers: plan.recommendedConsumers,
      predictedCatchUpSec: plan.catchUpSec,
      backlog: BigInt(backlog),
      thresholdLag: BigInt(caughtUpThreshold({ partitions: advice.partitions.length, backlog, arrivalRatePerSec })),
    },
  });
}

/**
 * The group's last predictions with their outcomes, newest first. Outcomes come from `rounds` (the group's
 * round totals since the oldest prediction shown); a caught-up outcome is stored so it outlives the samples.
 */
export async function loadTrackRecord(
  db: Database,
  cluster: string,
  groupId: string,
  rounds: readonly RoundLag[],
  nowMs: number,
): Promise<TTrackRecordEntry[]> {
  const rows = await db.advicePrediction.findMany({
    where: { cluster, groupId },
    orderBy: { predictedAt: 'desc' },
    take: TRACK_RECORD_LENGTH,
  });
  return Promise.all(
    rows.map(async (row): Promise<TTrackRecordEntry> => {
      const prediction: RecordedPrediction = {
        predictedAtMs: row.predictedAt.getTime(),
        consumersThen: row.consumersThen,
        predictedConsumers: row.predictedConsumers,
        predictedCatchUpSec: row.predictedCatchUpSec,
        backlog: Number(row.backlog),
        thresholdLag: Number(row.thresholdLag),
      };
      const outcome =
        row.caughtUpAt !== null
          ? {
              status: 'caught-up' as const,
              actualCatchUpSec: (row.caughtUpAt.getTime() - prediction.predictedAtMs) / 1000,
              planFollowed: row.planFollowed ?? false,
              caughtUpAtMs: row.caughtUpAt.getTime(),
            }
          : resolvePrediction(prediction, rounds, nowMs);
      if (row.caughtUpAt === null && outcome.status === 'caught-up') {
        await db.advicePrediction.update({
          where: { id: row.id },
          data: { caughtUpAt: new Date(outcome.caughtUpAtMs), planFollowed: outcome.planFollowed },
        });
      }
      const actualCatchUpSec = outcome.status === 'caught-up' ? outcome.actualCatchUpSec : null;
      return {
        predictedAt: row.predictedAt.toISOString(),
        consumersThen: prediction.consumersThen,
        predictedConsumers: prediction.predictedConsumers,
        predictedCatchUpSec: prediction.predictedCatchUpSec,
        backlog: prediction.backlog,
        thresholdLag: prediction.thresholdLag,
        outcome: outcome.status,
        actualCatchUpSec,
        elapsedSec: outcome.status === 'caught-up' ? outcome.actualCatchUpSec : outcome.elapsedSec,
        planFollowed: outcome.status === 'plan-not-followed' ? false : outcome.planFollowed,
        error: predictionError(prediction.predictedCatchUpSec, actualCatchUpSec),
      };
    }),
  );
}
