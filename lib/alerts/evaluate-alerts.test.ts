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
  problems: [],
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
  problems: [0, 1].map((partition) => ({ topic: 't', partition, status: 'STOP', burrowStatus: 'STOP' })),
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

  it('alerts on retention risk below the threshold: 1 h or 10% of retention.ms by default, or configured', () => {
    const settings = parseAlertSettings(
      JSON.stringify({
        '*': { 'retention-risk': { forMs: 0 } },
        billing: { 'retention-risk': { thresholdMs: 600_000 } },
      }),
    );
    const risky = (groupId: string, earliestMs: number | null, latestMs: number | null, retentionMs: number) => ({
      ...okGroup(groupId),
      retention: [
        { topic: 't', partition: 4, earliestMs, latestMs, retentionMs, basis: 'time retention: ...' },
        { topic: 't', partition: 1, earliestMs: 50 * 3_600_000, latestMs: null, retentionMs, basis: 'far' },
      ],
    });
    const [round] = play(
      [
        {
          atMs: T0,
          groups: [
            // 40 min below the default 1 h: fires.
            risky('orders', 40 * 60_000, 55 * 60_000, 3 * 3_600_000),
            // 2 h: below 10% of a 7-day retention (16 h 48 min), fires; the far partition is above it too.
            risky('events', 2 * 3_600_000, null, 7 * 86_400_000),
            // 40 min above billing's own 10 min threshold: nothing.
            risky('billing', 40 * 60_000, null, 3 * 3_600_000),
            // Only an upper bound known, below 1 h: fires (it is certain to go by then).
            risky('audit', null, 30 * 60_000, 3 * 3_600_000),
          ],
        },
      ],
      { settings },
    );
    const alerts = round!.notifications.map((n) => n.alert);
    expect(alerts.map((a) => `${a.condition} ${a.groupId}`).sort()).toEqual([
      'retention-risk audit',
      'retention-risk events',
      'retention-risk orders',
    ]);
    const orders = alerts.find((a) => a.groupId === 'orders')!;
    expect(orders).toMatchObject({ severity: 'warning' });
    expect(orders.summary).toBe('orders: records of t-4 can be deleted unread in 40 min');
    expect(orders.reasons).toEqual([
      't-4: unread records can be deleted in 40 min (at the latest in 55 min), below the 1 h threshold; time retention: ...',
    ]);
    expect(alerts.find((a) => a.groupId === 'events')!.reasons).toHaveLength(1);
    expect(alerts.find((a) => a.groupId === 'audit')!.reasons[0]).toMatch(
      /^t-4: unread records can be deleted by 30 min at the latest/,
    );
  });

  it('alerts on records lost at once, and resolves when every loss is acknowledged', () => {
    const lost = (losses: GroupObservation['losses']): GroupObservation => ({
      ...okGroup('orders'),
      status: 'LOST',
      reasons: ['t-4 LOST: 1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC'],
      problems: [{ topic: 't', partition: 4, status: 'LOST', burrowStatus: 'STOP' }],
      losses,
    });
    const loss = {
      topic: 't',
      partition: 4,
      count: 1_204n,
      summary: '1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC',
      detectedAtMs: T0 - 5_000,
    };
    const results = play([
      { atMs: T0, groups: [lost([loss])] },
      { atMs: T0 + 5_000, groups: [lost([loss, { ...loss, partition: 5, count: 1n, detectedAtMs: T0 }])] },
      { atMs: T0 + 10_000, groups: [{ ...okGroup('orders') }] },
    ]);
    // One incident, one notification: the group's LOST status is the loss the records-lost alert tells.
    expect(kinds(results)).toEqual([['firing records-lost orders'], [], ['resolved records-lost orders']]);
    expect(results[0]!.notifications[0]!.alert).toMatchObject({
      severity: 'critical',
      activeSinceMs: T0 - 5_000,
      summary: 'orders: 1,204 records deleted unread on 1 partition',
      reasons: ['t-4: 1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC'],
    });
    expect(results[1]!.open[0]!.summary).toBe('orders: 1,205 records deleted unread on 2 partitions');
  });

  describe('one incident, one notification', () => {
    const held = (extra: Partial<GroupObservation> = {}): GroupObservation => ({
      ...okGroup('orders'),
      status: 'QUARANTINED',
      reasons: ['t-0 is quarantined (its STOP is explained by the quarantine)'],
      quarantined: [{ topic: 't', partition: 0, offset: '5', reason: 'invalid JSON', sinceMs: T0 }],
      problems: [{ topic: 't', partition: 0, status: 'STOP', burrowStatus: 'STOP' }],
      ...extra,
    });
    const everyMinute = (group: GroupObservation, minutes = 4) =>
      Array.from({ length: minutes }, (_, i) => ({ atMs: T0 + i * 60_000, groups: [group] }));

    it('a quarantine pages once, as partition-quarantined: the group status it causes raises nothing', () => {
      const results = play(everyMinute(held()));
      expect(kinds(results).flat()).toEqual(['firing partition-quarantined orders']);
      expect(results.at(-1)!.open.map((a) => a.condition)).toEqual(['partition-quarantined']);
    });

    it("another partition's STOP still pages as group-status", () => {
      const alsoStopped = held({
        status: 'ERR',
        problems: [
          { topic: 't', partition: 0, status: 'STOP', burrowStatus: 'STOP' },
          { topic: 't', partition: 1, status: 'STOP', burrowStatus: 'STOP' },
        ],
      });
      expect(kinds(play(everyMinute(alsoStopped))).flat()).toEqual([
        'firing partition-quarantined orders',
        'firing group-status orders',
      ]);
    });

    it('the group status pages for a quarantine when partition-quarantined is disabled for the group', () => {
      const settings = parseAlertSettings('{"orders": {"partition-quarantined": {"enabled": false}}}');
      expect(kinds(play(everyMinute(held()), { settings })).flat()).toEqual(['firing group-status orders']);
    });

    it("a Warden worker not ready and its own group's STOP are one incident: worker-not-ready", () => {
      const workers = [{ groupId: 'orders', instanceId: 'w-1', ready: false, detail: 'no fetch', reportedAtMs: T0 }];
      const rounds = everyMinute(stopped).map((r) => ({
        ...r,
        extra: { workers: workers.map((w) => ({ ...w, reportedAtMs: r.atMs })) },
      }));
      expect(kinds(play(rounds)).flat()).toEqual(['firing worker-not-ready orders']);
      // Ready again while the group is still stopped: now the STOP is news of its own.
      const recovered = [...rounds, ...everyMinute(stopped, 3).map((r) => ({ ...r, atMs: r.atMs + 240_000 }))];
      expect(kinds(play(recovered)).flat()).toEqual([
        'firing worker-not-ready orders',
        'resolved worker-not-ready orders',
        'firing group-status orders',
      ]);
    });

    it('a firing group status that becomes explained keeps firing without reminders, and resolves at OK', () => {
      const settings = parseAlertSettings('{"*": {"group-status": {"forMs": 0, "repeatMs": 60000}}}');
      const stoppedThenHeld = held({
        status: 'QUARANTINED',
        problems: [{ topic: 't', partition: 1, status: 'STOP', burrowStatus: 'STOP' }],
        quarantined: [{ topic: 't', partition: 1, offset: '9', reason: 'invalid JSON', sinceMs: T0 + 60_000 }],
      });
      const results = play(
        [
          { atMs: T0, groups: [stopped] },
          { atMs: T0 + 60_000, groups: [stoppedThenHeld] },
          { atMs: T0 + 120_000, groups: [stoppedThenHeld] },
          { atMs: T0 + 180_000, groups: [okGroup('orders')] },
        ],
        { settings },
      );
      expect(kinds(results)).toEqual([
        ['firing group-status orders'],
        ['firing partition-quarantined orders'],
        [],
        ['resolved group-status orders', 'resolved partition-quarantined orders'],
      ]);
    });

    it('a pending group status whose cause another alert takes over is dropped before it fires', () => {
      const results = play([
        { atMs: T0, groups: [{ ...stopped, problems: [stopped.problems[0]!] }] },
        {
          atMs: T0 + 30_000,
          groups: [held({ problems: [{ topic: 't', partition: 0, status: 'STOP', burrowStatus: 'STOP' }] })],
        },
        { atMs: T0 + 90_000, groups: [held()] },
      ]);
      expect(results[1]!.dropped.map((a) => a.condition)).toEqual(['group-status']);
      expect(kinds(results).flat()).toEqual(['firing partition-quarantined orders']);
    });
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
