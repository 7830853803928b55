import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONDITION_SETTINGS,
  EMPTY_ALERT_SETTINGS,
  parseAlertSettings,
  resolveConditionSettings,
  retentionRiskThresholdMs,
} from './alert-settings';

describe('parseAlertSettings and resolveConditionSettings', () => {
  const table = parseAlertSettings(
    JSON.stringify({
      '*': { 'group-status': { forMs: 120_000 }, 'sampler-gap': { severity: 'warning' } },
      orders: { 'group-status': { severity: 'warning' } },
      '/^etl-/': { 'group-status': { enabled: false }, 'time-lag-objective': { repeatMs: 0 } },
      '/^etl-nightly$/': { 'group-status': { forMs: 1 } },
    }),
  );

  it('uses the defaults where nothing is configured', () => {
    expect(resolveConditionSettings(EMPTY_ALERT_SETTINGS, 'partition-quarantined', 'payments')).toEqual(
      DEFAULT_CONDITION_SETTINGS['partition-quarantined'],
    );
  });

  it('merges defaults, "*", the first matching pattern and an exact key, the most specific last', () => {
    expect(resolveConditionSettings(table, 'group-status', 'payments')).toEqual({
      ...DEFAULT_CONDITION_SETTINGS['group-status'],
      forMs: 120_000,
    });
    expect(resolveConditionSettings(table, 'group-status', 'orders')).toEqual({
      ...DEFAULT_CONDITION_SETTINGS['group-status'],
      forMs: 120_000,
      severity: 'warning',
    });
    // The first pattern in the JSON's order wins over a later, narrower one.
    expect(resolveConditionSettings(table, 'group-status', 'etl-nightly')).toMatchObject({
      enabled: false,
      forMs: 120_000,
    });
    expect(resolveConditionSettings(table, 'time-lag-objective', 'etl-a').repeatMs).toBe(0);
    expect(resolveConditionSettings(table, 'sampler-gap', null).severity).toBe('warning');
  });

  it('takes a retention-risk threshold per group; without one it is the larger of 1 h and 10% of retention.ms', () => {
    const thresholds = parseAlertSettings(
      JSON.stringify({ billing: { 'retention-risk': { thresholdMs: 7_200_000, forMs: 0 } } }),
    );
    const billing = resolveConditionSettings(thresholds, 'retention-risk', 'billing');
    expect(billing).toEqual({ ...DEFAULT_CONDITION_SETTINGS['retention-risk'], thresholdMs: 7_200_000, forMs: 0 });
    expect(retentionRiskThresholdMs(billing, 7 * 86_400_000)).toBe(7_200_000);
    const orders = resolveConditionSettings(thresholds, 'retention-risk', 'orders');
    expect(retentionRiskThresholdMs(orders, 7 * 86_400_000)).toBe(60_480_000); // 10% of 7 days
    expect(retentionRiskThresholdMs(orders, 3 * 3_600_000)).toBe(3_600_000);
    expect(retentionRiskThresholdMs(orders, null)).toBe(3_600_000);
    expect(resolveConditionSettings(EMPTY_ALERT_SETTINGS, 'records-lost', 'orders')).toMatchObject({
      enabled: true,
      forMs: 0,
      severity: 'critical',
    });
  });

  it.each([
    ['{"orders": {"group-status": {"thresholdMs": 1}}}', /"orders"."group-status".thresholdMs: only retention-risk/],
    ['{"orders": {"retention-risk": {"thresholdMs": -5}}}', /"orders"."retention-risk".thresholdMs must be a duration/],
    ['not json', /must be JSON/],
    ['[1]', /must be a JSON object/],
    ['{"orders": 1}', /"orders" must map to an object/],
    ['{"orders": {"lag-high": {}}}', /"orders": unknown condition "lag-high" \(known: group-status/],
    ['{"orders": {"group-status": {"for": 1}}}', /"orders"."group-status": unknown field "for"/],
    ['{"orders": {"group-status": {"forMs": -1}}}', /"orders"."group-status".forMs must be a duration in ms .* got -1/],
    ['{"*": {"group-status": {"repeatMs": 1.5}}}', /"\*"."group-status".repeatMs must be a duration/],
    [
      '{"orders": {"group-status": {"severity": "page"}}}',
      /severity must be one of critical, warning, info, got "page"/,
    ],
    ['{"orders": {"group-status": {"enabled": "no"}}}', /enabled must be true or false/],
    ['{"orders": {"sampler-gap": {"forMs": 1}}}', /"orders"."sampler-gap": a cluster-wide condition .* "\*" only/],
    ['{"/[/": {"group-status": {"forMs": 1}}}', /"\/\[\/" is not a valid \/pattern\/flags/],
  ])('refuses %s naming the path', (json, message) => {
    expect(() => parseAlertSettings(json)).toThrow(message);
  });
});
