import { describe, expect, it } from 'vitest';
import { EMPTY_ALERT_SETTINGS, parseAlertSettings, type AlertSettingsTable } from './alert-settings';
import {
  evaluateAlerts,
  type AlertEvaluation,
  type AlertObservation,
  type GroupObservation,
  type OpenAlert,
  type Silence,
} from './evaluate-alerts';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);

const okGroup = (groupId: string): GroupObservation => ({
  groupId,
  status: 'OK',
  reasons: ['all 3 partitions OK'],
  worstTimeLag: { ms: 1_000, kind: 'interpolated', basis: 'log-end points', topic: 't', partition: 0 },
  timeLagObjectiveMs: 300_000,
  quarantined: [],
});

const observation = (nowMs: number, groups: GroupObservation[] | null, extra: Partial<AlertObservation> = {}) => ({
  nowMs,
  groups,
  sampler: { failingSinceMs: null, failedRounds: 0, lastError: null },
  workers: [],
  workerStaleAfterMs: 30_000,
  ...extra,
});

/** Plays rounds every `stepMs` through the evaluator, feeding each round's open alerts to the next. */
function play(
  rounds: Array<{ atMs: number; groups: GroupObservation[] | null; extra?: Partial<AlertObservation> }>,
  options: { settings?: AlertSettingsTable; silences?: Silence[]; ack?: { atMs: number } } = {},
): AlertEvaluation[] {
  let open: OpenAlert[] = [];
  return rounds.map((round) => {
    if (options.ack && round.atMs >= options.ack.atMs)
      open = open.map((a) => (a.phase === 'firing' ? { ...a, acknowledgedAtMs: a.acknowledgedAtMs ?? round.atMs } : a));
    const result = evaluateAlerts({
      observation: observation(round.atMs, round.groups, round.extra),
      previous: open,
      silences: options.silences ?? [],
      settings: options.settings ?? EMPTY_ALERT_SETTINGS,
    });
    open = result.open;
    return result;
  });
}

const kinds = (results: AlertEvaluation[]) =>
  results.map((r) => r.notifications.map((n) => `${n.kind} ${n.alert.condition} ${n.alert.groupId ?? '*'}`));

const stopped: GroupObservation = {
  ...okGroup('orders'),
  status: 'ERR',
  reasons: [
    't-0 STOP: the consumer stopped committing while lagging',
    't-1 STOP: the consumer stopped committing while lagging',
  ],
};

describe('evaluateAlerts', () => {
  it('fires only after the condition held for its `for` duration, once per group and condition', () => {
    const settings = parseAlertSettings('{"*": {"group-status": {"forMs": 20000}}}');
    const results = play(
      [0, 10_000, 20_000, 30_000].map((ms) => ({ atMs: T0 + ms, groups: [stopped] })),
      { settings },
    );
    expect(kinds(results)).toEqual([[], [], ['firing group-status orders'], []]);
    const fired = results[2]!.notifications[0]!;
    expect(fired.alert).toMatchObject({
      id: `group-status:orders:${T0}`,
      phase: 'firing',
      severity: 'critical',
      activeSinceMs: T0,
      firingSinceMs: T0 + 20_000,
      reasons: stopped.reasons,
    });
    expect(fired.alert.summary).toBe('orders is ERR: t-0 STOP: the consumer stopped committing while lagging');
    expect(fired.dedupeKey).toBe(`group-status:orders:${T0}:firing:0`);
    expect(results[1]!.open[0]!.phase).toBe('pending');
  });

  it('drops a pending alert whose condition cleared, without a notification', () => {
    const results = play([
      { atMs: T0, groups: [stopped] },
      { atMs: T0 + 5_000, groups: [okGroup('orders')] },
      { atMs: T0 + 10_000, groups: [stopped] },
    ]);
    expect(kinds(results)).toEqual([[], [], []]);
    expect(results[1]!.dropped.map((a) => a.id)).toEqual([`group-status:orders:${T0}`]);
    // A new episode starts with its own id and its own `for` clock.
    expect(results[2]!.open[0]!.id).toBe(`group-status:orders:${T0 + 10_000}`);
  });

  it('resolves a firing alert when its condition clears, with the same alert id', () => {
    const settings = parseAlertSettings('{"*": {"group-status": {"forMs": 0}}}');
    const results = play(
      [
        { atMs: T0, groups: [stopped] },
        { atMs: T0 + 5_000, groups: [okGroup('orders')] },
      ],
      { settings },
    );
    expect(kinds(results)).toEqual([['firing group-status orders'], ['resolved group-status orders']]);
    const resolved = results[1]!.notifications[0]!;
    expect(resolved.alert.id).toBe(results[0]!.notifications[0]!.alert.id);
    expect(resolved.dedupeKey).toBe(`group-status:orders:${T0}:resolved:1`);
    expect(results[1]!.open).toEqual([]);
  });

  it('repeats a reminder every repeat interval while firing, and none once acknowledged', () => {
    const settings = parseAlertSettings('{"*": {"group-status": {"forMs": 0, "repeatMs": 60000}}}');
    const rounds = [0, 30_000, 60_000, 90_000, 120_000, 180_000].map((ms) => ({ atMs: T0 + ms, groups: [stopped] }));
    expect(kinds(play(rounds, { settings }))).toEqual([
      ['firing group-status orders'],
      [],
      ['reminder group-status orders'],
      [],
      ['reminder group-status orders'],
      ['reminder group-status orders'],
    ]);
    expect(kinds(play(rounds, { settings, ack: { atMs: T0 + 90_000 } }))).toEqual([
      ['firing group-status orders'],
      [],
      ['reminder group-status orders'],
      [],
      [],
      [],
    ]);
  });

  it('keeps group alerts unchanged while the cluster cannot be read, and fires the sampler gap from its start', () => {
    const settings = parseAlertSettings('{"*": {"group-status": {"forMs": 0}, "sampler-gap": {"forMs": 15000}}}');
    const failing = (failedRounds: number) => ({
      sampler: { failingSinceMs: T0 + 5_000, failedRounds, lastError: 'KafkaJSConnectionError: Connection error' },
    });
    const results = play(
      [
        { atMs: T0, groups: [stopped] },
        { atMs: T0 + 10_000, groups: null, extra: failing(2) },
        { atMs: T0 + 20_000, groups: null, extra: failing(3) },
        { atMs: T0 + 25_000, groups: [okGroup('orders')] },
      ],
      { settings },
    );
    expect(kinds(results)).toEqual([
      ['firing group-status orders'],
      [],
      ['firing sampler-gap *'],
      ['resolved group-status orders', 'resolved sampler-gap *'],
    ]);
    const gap = results[2]!.notifications[0]!.alert;
    expect(gap).toMatchObject({ activeSinceMs: T0 + 5_000, groupId: null });
    expect(gap.summary).toBe('the sampler cannot read the cluster (3 failed rounds over 15 s)');
    expect(gap.reasons).toEqual(['KafkaJSConnectionError: Connection error']);
  });

  it('alerts on the time-lag objective with the worst partition and how its time lag was obtained', () => {
    const settings = parseAlertSettings('{"*": {"time-lag-objective": {"forMs": 0}}}');
    const lagging: GroupObservation = {
      ...okGroup('orders'),
      status: 'WARN',
      worstTimeLag: {
        ms: 450_000,
        kind: 'exact',
        basis: 'record at the committed offset',
        topic: 'events',
        partition: 3,
      },
    };
    const [first] = play([{ atMs: T0, groups: [lagging] }], { settings });
    const alert = first!.notifications.find((n) => n.alert.condition === 'time-lag-objective')!.alert;
    expect(alert.summary).toBe('orders: worst time lag 7 min 30 s is above the 5 min objective');
    expect(alert.reasons).toEqual(['events-3: time lag 7 min 30 s (exact, record at the committed offset)']);
    expect(alert.worstTimeLag?.ms).toBe(450_000);
  });

  it('opens an episode that starts where a closed one started under a free id, the same on a replay', () => {
    const held: GroupObservation = {
      ...okGroup('orders'),
      status: 'QUARANTINED',
      quarantined: [{ topic: 't', partition: 0, offset: '5', reason: 'invalid JSON', sinceMs: T0 - 1_000 }],
    };
    const evaluate = (closedIds?: ReadonlySet<string>) =>
      evaluateAlerts({
        observation: observation(T0, [held]),
        previous: [],
        silences: [],
        settings: EMPTY_ALERT_SETTINGS,
        closedIds,
      }).open.find((a) => a.condition === 'partition-quarantined')!.id;
    const base = evaluate();
    expect(base).toMatch(new RegExp(`:${T0 - 1_000}$`));
    expect(evaluate(new Set([base]))).toBe(`${base}:2`);
    expect(evaluate(new Set([base, `${base}:2`]))).toBe(`${base}:3`);
    expect(evaluate(new Set([base]))).toBe(evaluate(new Set([base])));
  });

  it("scopes new alert ids by the evaluation's cluster, and keeps an open alert's id", () => {
    const settings = parseAlertSettings(JSON.stringify({ '*': { 'group-status': { forMs: 0 } } }));
    const evaluate = (idScope: string | undefined, previous: OpenAlert[] = []) =>
      evaluateAlerts({ observation: observation(T0, [stopped]), previous, silences: [], settings, idScope }).open;
    const [unscoped] = evaluate(undefined);
    const [scoped] = evaluate('eu/');
    expect(unscoped!.id).toBe(`group-status:orders:${T0}`);
    expect(scoped!.id).toBe(`eu/group-status:orders:${T0}`);
    expect(evaluate('eu/', [unscoped!])[0]!.id).toBe(unscoped!.id);
  });

  it('groups quarantined partitions into one alert and says who released them', () => {
    const held: GroupObservation = {
      ...okGroup('orders'),
      status: 'QUARANTINED',
      quarantined: [
        { topic: 't', partition: 2, offset: '17', reason: 'invalid JSON', sinceMs: T0 - 1_000 },
        { topic: 't', partition: 0, offset: '5', reason: 'invalid JSON', sinceMs: T0 - 3_000 },
      ],
    };
    const results = play([
      { atMs: T0, groups: [held] },
      {
        atMs: T0 + 5_000,
        groups: [okGroup('orders')],
        extra: {
          releases: [
            { groupId: 'orders', topic: 't', partition: 0, action: 'skip', requestedBy: 'alice' },
            { groupId: 'other', topic: 't', partition: 0, action: 'resume', requestedBy: 'bob' },
          ],
        },
      },
    ]);
    const quarantine = results[0]!.notifications.filter((n) => n.alert.condition === 'partition-quarantined');
    expect(quarantine).toHaveLength(1);
    expect(quarantine[0]!.alert).toMatchObject({
      activeSinceMs: T0 - 3_000,
      summary: 'orders: 2 partitions quarantined',
      reasons: ['t-0 quarantined at offset 5: invalid JSON', 't-2 quarantined at offset 17: invalid JSON'],
    });
    const resolved = results[1]!.notifications.find((n) => n.alert.condition === 'partition-quarantined')!;
    expect(resolved.kind).toBe('resolved');
    expect(resolved.alert.reasons).toEqual(['t-0 released: skip by alice']);
  });

  it('alerts on a worker that is not ready or stopped reporting, per group', () => {
    const settings = parseAlertSettings('{"*": {"worker-not-ready": {"forMs": 0}}}');
    const workers = [
      { groupId: 'pipe', instanceId: 'w-1', ready: true, detail: 'ok', reportedAtMs: T0 - 1_000 },
      { groupId: 'pipe', instanceId: 'w-2', ready: false, detail: 'no heartbeat for 12s', reportedAtMs: T0 },
      { groupId: 'pipe', instanceId: 'w-3', ready: true, detail: 'ok', reportedAtMs: T0 - 45_000 },
      { groupId: 'other', instanceId: 'w-4', ready: true, detail: 'ok', reportedAtMs: T0 },
    ];
    const [first] = play([{ atMs: T0, groups: [], extra: { workers } }], { settings });
    expect(first!.notifications).toHaveLength(1);
    expect(first!.notifications[0]!.alert).toMatchObject({
      condition: 'worker-not-ready',
      groupId: 'pipe',
      reasons: [
        'worker w-2 is not ready: no heartbeat for 12s',
        'worker w-3 has not reported for 45 s (gone from its group)',
      ],
    });
  });

  it('records a silenced notification with its silence, until the silence ends by itself', () => {
    const settings = parseAlertSettings('{"*": {"group-status": {"forMs": 0, "repeatMs": 60000}}}');
    const silences: Silence[] = [
      { id: 's-1', groupId: 'orders', condition: null, endsAtMs: T0 + 90_000 },
      { id: 's-2', groupId: null, condition: 'sampler-gap', endsAtMs: T0 + 900_000 },
    ];
    const results = play(
      [0, 60_000, 120_000].map((ms) => ({ atMs: T0 + ms, groups: [stopped, { ...stopped, groupId: 'billing' }] })),
      { settings, silences },
    );
    expect(
      results.map((r) => r.notifications.map((n) => `${n.kind} ${n.alert.groupId} ${n.silencedBy ?? 'deliver'}`)),
    ).toEqual([
      ['firing billing deliver', 'firing orders s-1'],
      ['reminder billing deliver', 'reminder orders s-1'],
      ['reminder billing deliver', 'reminder orders deliver'],
    ]);
  });

  it('never fires a disabled condition, and resolves one that was firing when it was disabled', () => {
    const on = parseAlertSettings('{"*": {"group-status": {"forMs": 0}}}');
    const off = parseAlertSettings('{"/^ord/": {"group-status": {"enabled": false}}}');
    const [fired] = play([{ atMs: T0, groups: [stopped] }], { settings: on });
    const later = evaluateAlerts({
      observation: observation(T0 + 5_000, [stopped]),
      previous: fired!.open,
      silences: [],
      settings: off,
    });
    expect(later.notifications.map((n) => n.kind)).toEqual(['resolved']);
    expect(kinds(play([{ atMs: T0, groups: [stopped] }], { settings: off }))).toEqual([[]]);
  });

  it('is deterministic: the same rounds give the same dedupe keys', () => {
    const rounds = [0, 60_000, 120_000].map((ms) => ({ atMs: T0 + ms, groups: [stopped] }));
    const keys = (r: AlertEvaluation[]) => r.flatMap((e) => e.notifications.map((n) => n.dedupeKey));
    expect(keys(play(rounds))).toEqual(keys(play(rounds)));
    expect(keys(play(rounds))).toEqual([`group-status:orders:${T0}:firing:0`]);
  });

  it('refuses a clock that is not finite', () => {
    expect(() =>
      evaluateAlerts({
        observation: observation(Number.NaN, []),
        previous: [],
        silences: [],
        settings: EMPTY_ALERT_SETTINGS,
      }),
    ).toThrow(RangeError);
  });
});
