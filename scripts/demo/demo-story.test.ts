import { describe, expect, it } from 'vitest';
import {
  actsStartingBetween,
  ORDERS_RATE_PER_SEC,
  ORDERS_SERVICE_ACTS,
  planAt,
  plainConsumerGroupId,
  STORY_ACTS,
  type DemoStorySettings,
} from './demo-story';
import { archiverGroupId, auditTopic, SHORT_RETENTION } from './demo-archiver';

const story: DemoStorySettings = {
  scenario: 'story',
  steadyRatePerSec: 20,
  surgeRatePerSec: 300,
  hotKeyRatePerSec: 15,
};

describe('demo story', () => {
  it('plays steady traffic, then the hot key, the surge and the second worker, then steady again', () => {
    const audit = { auditRatePerSec: SHORT_RETENTION.ratePerSec, archiver: true, archiverStalled: false };
    const off = { plainConsumer: false, ordersRatePerSec: 2, ...audit, archiverStalled: true };
    expect(planAt(5, story)).toEqual({
      ratePerSec: 20,
      hotKeyRatePerSec: 0,
      secondWorker: false,
      plainConsumer: false,
      ordersRatePerSec: 2,
      auditRatePerSec: 0,
      archiver: false,
      archiverStalled: false,
    });
    expect(planAt(15, story)).toEqual({
      ratePerSec: 20,
      hotKeyRatePerSec: 0,
      secondWorker: false,
      plainConsumer: true,
      ordersRatePerSec: 2,
      ...audit,
    });
    expect(planAt(30, story)).toEqual({
      ratePerSec: 20,
      hotKeyRatePerSec: 15,
      secondWorker: false,
      plainConsumer: true,
      ordersRatePerSec: 2,
      ...audit,
    });
    expect(planAt(80, story)).toEqual({ ratePerSec: 300, hotKeyRatePerSec: 15, secondWorker: false, ...off });
    expect(planAt(100, story)).toEqual({ ratePerSec: 300, hotKeyRatePerSec: 15, secondWorker: true, ...off });
    expect(planAt(130, story)).toEqual({ ratePerSec: 20, hotKeyRatePerSec: 15, secondWorker: true, ...off });
    expect(planAt(145, story)).toEqual({ ratePerSec: 20, hotKeyRatePerSec: 0, secondWorker: true, ...off });
    expect(planAt(200, story)).toEqual({
      ratePerSec: 20,
      hotKeyRatePerSec: 0,
      secondWorker: false,
      ...off,
      archiverStalled: false,
    });
  });

  it("names the plain consumer's group after the demo's group", () => {
    expect(plainConsumerGroupId('warden-pipeline')).toBe('warden-pipeline-plain-kafkajs');
  });

  it("names the archiver's group and topic after the demo's, and reads a quarter as fast as records arrive", () => {
    expect(archiverGroupId('warden-pipeline')).toBe('warden-pipeline-audit-archiver');
    expect(auditTopic('warden-events')).toBe('warden-events-audit');
    const perPartitionArrival = SHORT_RETENTION.ratePerSec / SHORT_RETENTION.partitions;
    const perPartitionRead = 1_000 / SHORT_RETENTION.handleMs;
    expect(perPartitionRead / perPartitionArrival).toBe(0.25);
    // Read slowly from 15 s, then stopped from 40 s: its oldest unread record passes the retention well before it
    // reads again (at 150 s), so the act ends in a loss that lasts.
    const ageingPerSec = 1 - perPartitionRead / perPartitionArrival;
    const act = (name: string) => STORY_ACTS.find((a) => a.name === name)!;
    const ageAtStall = (act('archiver-stalls').fromSec - act('short-retention').fromSec) * ageingPerSec;
    const retentionSec = SHORT_RETENTION.retentionMs / 1_000;
    expect(ageAtStall).toBeLessThan(retentionSec);
    expect(act('archiver-stalls').fromSec + (retentionSec - ageAtStall)).toBeLessThan(
      act('archiver-stalls').toSec - 60,
    );
    expect(act('archiver-recovers').fromSec).toBe(act('archiver-stalls').toSec);
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
        ordersRatePerSec: 2,
        auditRatePerSec: 0,
        archiver: false,
        archiverStalled: false,
      });
    // The orders service takes its few orders in either scenario; its malformed order is the story's.
    expect(actsStartingBetween(-1, 1_000, 'steady').map((a) => a.name)).toEqual(['steady', 'orders-service']);
  });

  it('announces each act once, when its start time passes (the poison record and the malformed order included)', () => {
    expect(actsStartingBetween(-1, 0, 'story').map((a) => a.name)).toEqual(['steady', 'orders-service']);
    expect(actsStartingBetween(0, 44.9, 'story').map((a) => a.name)).toEqual([
      'plain-consumer',
      'short-retention',
      'hot-key',
      'archiver-stalls',
    ]);
    expect(actsStartingBetween(44.9, 45.1, 'story').map((a) => a.name)).toEqual(['poison']);
    expect(actsStartingBetween(45.1, 45.3, 'story')).toEqual([]);
    expect(actsStartingBetween(45.3, 50, 'story').map((a) => a.name)).toEqual(['malformed-order']);
    expect(actsStartingBetween(50, 95, 'story').map((a) => a.name)).toEqual(['surge', 'second-worker']);
    expect(actsStartingBetween(95, 200, 'story').map((a) => a.name)).toEqual(['archiver-recovers']);
  });

  it("the orders service's acts: orders from the start at a few a second, its malformed order near Warden's poison record", () => {
    expect(ORDERS_RATE_PER_SEC).toBeGreaterThan(0);
    expect(ORDERS_RATE_PER_SEC).toBeLessThan(story.steadyRatePerSec);
    const act = (name: string) => STORY_ACTS.find((a) => a.name === name)!;
    const malformed = act('malformed-order');
    expect(malformed.toSec).toBe(malformed.fromSec);
    expect(Math.abs(malformed.fromSec - act('poison').fromSec)).toBeLessThanOrEqual(10);
    // The cue says where to look and what names the holder.
    expect(malformed.cue).toMatch(/Quarantine page/);
    expect(malformed.cue).toMatch(/orders-service@host\/pid/);
    expect(act('orders-service').cue).toMatch(/Instances card/);
    expect([...ORDERS_SERVICE_ACTS].sort()).toEqual(['malformed-order', 'orders-service']);
    for (const name of ORDERS_SERVICE_ACTS) expect(STORY_ACTS.some((a) => a.name === name)).toBe(true);
  });
});
