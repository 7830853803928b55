import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { childProcessEnv } from '../../lib/config/program-config';

// `npm run bench -- --quick` through its real code on the test broker: a small selection (the Warden
// workload (2) brings the raw kafkajs baseline (1); (15) runs (2)'s setting with the control plane off and on,
// two short runs more), run as the script runs, judged on what it prints and saves, so the bench cannot rot
// unnoticed. Its speed is not judged here (that is the bench's).

const ROOT = path.resolve(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

describe('npm run bench -- --quick', () => {
  it(
    'runs workloads 1, 2 and 15 on the test broker, prints the table and the targets, and saves the run',
    { timeout: 300_000 },
    async () => {
      const startedMs = Date.now();
      const { stdout } = await promisify(execFile)(TSX, ['scripts/bench/main.ts', '--quick', '--only', '2,15'], {
        cwd: ROOT,
        env: childProcessEnv(),
        timeout: 280_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(stdout).toContain('--quick: a smoke test');
      const row = (id: string) => stdout.split('\n').find((line) => new RegExp(`^\\s*${id}\\s`).test(line));
      expect(row('1')).toMatch(/raw kafkajs eachBatch, no-op, commit per batch\s+10,000\s/);
      expect(row('2')).toMatch(/Warden unordered, no-op\s+10,000\s/);
      expect(stdout).toMatch(/^(PASS|MISS) {2}\(2\) at least 0\.85 of \(1\): \d\.\d\d$/m);
      expect(row('15')).toMatch(/control plane on \(default state interval\).*\s+50,000\s.*off: median [\d,]+\/s/);
      expect(stdout).toMatch(
        /^(PASS|MISS) {2}\(15\) control plane on at least 0\.97 of off \(back-to-back pairs, same run\): \d\.\d{3} \(geometric mean of 2 pairs; medians [\d,]+ ÷ [\d,]+\/s\)$/m,
      );

      const dir = path.join(ROOT, 'bench-results');
      const saved = readdirSync(dir)
        .filter((name) => name.endsWith('-quick-only-2.15.json') && statSync(path.join(dir, name)).mtimeMs >= startedMs)
        .map(
          (name) =>
            JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as {
              mode: string;
              workloads: Array<{ id: string; error: string | null; runs: Array<{ records: number }> }>;
            },
        );
      expect(saved).toHaveLength(1);
      expect(saved[0]!.mode).toBe('quick');
      expect(saved[0]!.workloads.map((w) => [w.id, w.error, w.runs.map((r) => r.records)])).toEqual([
        ['1', null, [10_000]],
        ['2', null, [10_000]],
        ['15', null, [50_000]],
      ]);
    },
  );
});
