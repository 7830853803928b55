import { describe, expect, it } from 'vitest';
import { actsStartingBetween, planAt, plainConsumerGroupId, type DemoStorySettings } from './demo-story';

const story: DemoStorySettings = {
  scenario: 'story',
  steadyRatePerSec: 20,
  surgeRatePerSec: 300,
  hotKeyRatePerSec: 15,
};

describe('demo story', () => {
  it('plays steady traffic, then the hot key, the surge and the second worker, then steady again', () => {
    const off = { plainConsumer: false };
    expect(planAt(5, story)).toEqual({ ratePerSec: 20, hotKeyRatePerSec: 0, secondWorker: false, ...off });
    expect(planAt(15, story)).toEqual({
      ratePerSec: 20,
      hotKeyRatePerSec: 0,
      secondWorker: false,
      plainConsumer: true,
    });
    expect(planAt(30, story)).toEqual({
      ratePerSec: 20,
      hotKeyRatePerSec: 15,
      secondWorker: false,
      plainConsumer: true,
    });
    expect(planAt(80, story)).toEqual({ ratePerSec: 300, hotKeyRatePerSec: 15, secondWorker: false, ...off });
    expect(planAt(100, story)).toEqual({ ratePerSec: 300, hotKeyRatePerSec: 15, secondWorker: true, ...off });
    expect(planAt(130, story)).toEqual({ ratePerSec: 20, hotKeyRatePerSec: 15, secondWorker: true, ...off });
    expect(planAt(145, story)).toEqual({ ratePerSec: 20, hotKeyRatePerSec: 0, secondWorker: true, ...off });
    expect(planAt(200, story)).toEqual({ ratePerSec: 20, hotKeyRatePerSec: 0, secondWorker: false, ...off });
  });

  it("names the plain consumer's group after the demo's group", () => {
    expect(plainConsumerGroupId('warden-pipeline')).toBe('warden-pipeline-plain-kafkajs');
  });

  it('never lowers the rate in a surge configured below the steady rate', () => {
    expect(planAt(80, { ...story, surgeRatePerSec: 5 }).ratePerSec).toBe(20);
  });

  it('the steady scenario has no acts beyond steady traffic', () => {
    for (const t of [0, 30, 80, 100, 200])
      expect(planAt(t, { ...story, scenario: 'steady' })).toEqual({
        ratePerSec: 20,
        hotKeyRatePerSec: 0,
        secondWorker: false,
        plainConsumer: false,
      });
    expect(actsStartingBetween(-1, 1_000, 'steady').map((a) => a.name)).toEqual(['steady']);
  });

  it('announces each act once, when its start time passes (the poison record included)', () => {
    expect(actsStartingBetween(-1, 0, 'story').map((a) => a.name)).toEqual(['steady']);
    expect(actsStartingBetween(0, 44.9, 'story').map((a) => a.name)).toEqual(['plain-consumer', 'hot-key']);
    expect(actsStartingBetween(44.9, 45.1, 'story').map((a) => a.name)).toEqual(['poison']);
    expect(actsStartingBetween(45.1, 45.3, 'story')).toEqual([]);
    expect(actsStartingBetween(45.3, 95, 'story').map((a) => a.name)).toEqual(['surge', 'second-worker']);
  });
});
