import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { WorkerMetrics } from './worker-metrics';

// The shipped Prometheus rules: valid for promtool, passing their own promtool unit tests, and naming only
// series the worker really exports (a renamed metric would otherwise leave an alert that never fires).
// promtool comes with Debian's prometheus package (.ci/run installs it when missing).

const ROOT = path.resolve(__dirname, '..', '..');
const RULES = path.join(ROOT, 'deploy', 'prometheus', 'warden-rules.yml');
const TESTS = path.join(ROOT, 'deploy', 'prometheus', 'tests', 'warden-rules.test.yml');
const PROMTOOL = '/usr/bin/promtool';
const run = promisify(execFile);

describe('deploy/prometheus/warden-rules.yml', () => {
  it('passes promtool check rules', async () => {
    const { stdout } = await run(PROMTOOL, ['check', 'rules', RULES]);
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('passes its promtool unit tests', async () => {
    const { stdout } = await run(PROMTOOL, ['test', 'rules', TESTS]);
    expect(stdout).toContain('SUCCESS');
  });

  it('names only metrics the worker exports', async () => {
    const metrics = new WorkerMetrics({
      snapshot: () => null,
      samplerLeaders: () => [{ cluster: 'default', leader: true }],
      ready: () => true,
      timeLagObjectiveSec: 300,
      defaultMetrics: false,
    });
    const exported = new Set([...(await metrics.render()).matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]));
    const used = new Set([...readFileSync(RULES, 'utf8').matchAll(/\b(warden_[a-z_]+)\b/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((name) => !exported.has(name!))).toEqual([]);
  });
});
