import { describe, expect, it } from 'vitest';
import { admitEvent } from '../../worker/pipeline/events';
import { encodeRecord, planRecords } from './records';

describe('planRecords', () => {
  it('gives every key its own increasing sequence and mixes kinds by share', () => {
    let n = 0;
    const draws = [0.001, 0.003, 0.02, 0.5, 0.9, 0.9];
    const plan = planRecords(
      { runId: 'r', records: 6, keys: 2, poisonShare: 0.002, malformedShare: 0.002, ignoredShare: 0.05 },
      () => draws[n++]!,
    );
    expect(plan.map((p) => p.kind)).toEqual(['poison', 'malformed', 'ignored', 'valid', 'valid', 'valid']);
    expect(plan.map((p) => `${p.key}:${p.sequence}`)).toEqual(['k0:0', 'k1:0', 'k0:1', 'k1:1', 'k0:2', 'k1:2']);
    expect(new Set(plan.map((p) => p.id)).size).toBe(6);
  });
});

describe('encodeRecord', () => {
  const base = { id: 'r-1', key: 'k1', sequence: 3 };
  const asSource = (m: ReturnType<typeof encodeRecord>) => ({
    topic: 't',
    partition: 0,
    offset: '0',
    key: Buffer.from(m.key),
    value: m.value,
    timestampMs: 0,
    headers: m.headers,
  });

  it('produces records the pipeline admits or rejects exactly as their kind says', () => {
    expect(admitEvent(asSource(encodeRecord({ ...base, kind: 'valid' }, 0))).ok).toBe(true);
    expect(admitEvent(asSource(encodeRecord({ ...base, kind: 'ignored' }, 0)))).toMatchObject({
      ok: true,
      value: { resultKey: null },
    });
    expect(admitEvent(asSource(encodeRecord({ ...base, kind: 'poison' }, 0)))).toMatchObject({
      ok: false,
      errorClass: 'missing-result-key',
    });
    const classes = [0, 1, 2, 3, 4].map((i) => {
      const admission = admitEvent(asSource(encodeRecord({ ...base, kind: 'malformed' }, i)));
      return admission.ok ? 'admitted' : admission.errorClass;
    });
    expect(classes).toEqual(['malformed-json', 'invalid-event', 'oversized', 'invalid-utf8', 'null-value']);
  });
});
