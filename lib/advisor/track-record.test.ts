import { describe, expect, it } from 'vitest';
import { caughtUpThreshold, predictionError, resolvePrediction, type RecordedPrediction } from './track-record';

const prediction: RecordedPrediction = {
  predictedAtMs: 10_000,
  consumersThen: 1,
  predictedConsumers: 3,
  predictedCatchUpSec: 30,
  backlog: 9_000,
  thresholdLag: 180,
};

describe('resolvePrediction', () => {
  it('measures the time from the prediction to the first round at or under the threshold', () => {
    const rounds = [
      { atMs: 5_000, consumers: 1, totalLag: 100 }, // before the prediction: ignored
      { atMs: 15_000, consumers: 1, totalLag: 8_800 },
      { atMs: 20_000, consumers: 3, totalLag: 7_000 },
      { atMs: 40_000, consumers: 3, totalLag: 181 },
      { atMs: 45_000, consumers: 3, totalLag: 180 },
      { atMs: 50_000, consumers: 3, totalLag: 0 },
    ];
    expect(resolvePrediction(prediction, rounds, 60_000)).toEqual({
      status: 'caught-up',
      actualCatchUpSec: 35,
      planFollowed: true,
      caughtUpAtMs: 45_000,
    });
  });

  it('says "not yet" while the time is not up, and "plan not followed" after it without the predicted count', () => {
    const rounds = [
      { atMs: 15_000, consumers: 1, totalLag: 8_000 },
      { atMs: 30_000, consumers: 2, totalLag: null },
    ];
    expect(resolvePrediction(prediction, rounds, 35_000)).toEqual({
      status: 'not-yet',
      elapsedSec: 25,
      planFollowed: false,
    });
    expect(resolvePrediction(prediction, rounds, 45_000)).toEqual({ status: 'plan-not-followed', elapsedSec: 35 });
    const followed = [...rounds, { atMs: 44_000, consumers: 3, totalLag: 2_000 }];
    expect(resolvePrediction(prediction, followed, 45_000)).toEqual({
      status: 'not-yet',
      elapsedSec: 35,
      planFollowed: true,
    });
  });

  it('counts a plan that asked for no more consumers than ran as followed', () => {
    const keep = { ...prediction, predictedConsumers: 1 };
    expect(resolvePrediction(keep, [{ atMs: 20_000, consumers: 1, totalLag: 0 }], 20_000)).toMatchObject({
      status: 'caught-up',
      planFollowed: true,
    });
  });
});

describe('caughtUpThreshold and predictionError', () => {
  it('takes the largest of one record per partition, 2% of the backlog and ten seconds of arrivals', () => {
    expect(caughtUpThreshold({ partitions: 4, backlog: 100, arrivalRatePerSec: 0 })).toBe(4);
    expect(caughtUpThreshold({ partitions: 4, backlog: 10_000, arrivalRatePerSec: 0 })).toBe(200);
    expect(caughtUpThreshold({ partitions: 4, backlog: 10_000, arrivalRatePerSec: 50.5 })).toBe(505);
  });

  it('is never more than half the backlog, so a plan made near the threshold is not fulfilled by jitter', () => {
    const threshold = caughtUpThreshold({ partitions: 3, backlog: 320, arrivalRatePerSec: 30 });
    expect(threshold).toBe(160);
    expect(caughtUpThreshold({ partitions: 4, backlog: 6, arrivalRatePerSec: 0 })).toBe(3);
    const nearThreshold = { ...prediction, backlog: 320, thresholdLag: threshold, predictedCatchUpSec: 24 };
    // Ten seconds of arrivals (300) waiting a second later: the backlog has not gone.
    expect(resolvePrediction(nearThreshold, [{ atMs: 11_000, consumers: 1, totalLag: 290 }], 11_000).status).toBe(
      'not-yet',
    );
    expect(resolvePrediction(nearThreshold, [{ atMs: 20_000, consumers: 3, totalLag: 150 }], 20_000)).toMatchObject({
      status: 'caught-up',
      actualCatchUpSec: 10,
    });
  });

  it('is the relative error, unknown without both times', () => {
    expect(predictionError(40, 50)).toBe(0.25);
    expect(predictionError(40, 30)).toBe(-0.25);
    expect(predictionError(null, 30)).toBeNull();
    expect(predictionError(0, 30)).toBeNull();
    expect(predictionError(30, null)).toBeNull();
  });
});
