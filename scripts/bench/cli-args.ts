import { parseCommandLine, UsageError } from '../lib/command-line';
import type { BenchMode } from './plan';

// Command line of `npm run bench`.

export const USAGE = `usage: npm run bench [-- [--quick] [--only 1,2,7] [--repeat N] [--commit-interval-ms MS] [--cpu-prof]]
  --quick                 small sizes, one round: about a minute, a smoke test
  --only IDS              run only these workloads (1 comes along with any throughput workload: every ratio is
                          to it; 7 brings 2; 10 sampler round, 10s sampler at fleet size, 11a/11b group-page reads,
                          12/13 action round trips and 14 control traffic run alone; 15 runs (2)'s setting off and on)
  --repeat N              rounds of the throughput workloads (default: 5 full, 1 quick); rows show the median round
  --commit-interval-ms MS Warden's commitIntervalMs in every workload (default: the library's 1000)
  --cpu-prof              write a V8 CPU profile of every workload child to bench-results/profiles/<run>/`;

export interface BenchArgs {
  mode: BenchMode;
  only: string[];
  repeat: number | null;
  commitIntervalMs: number | null;
  cpuProfile: boolean;
  help: boolean;
}

/** Parses the bench's arguments (util.parseArgs); throws a UsageError naming the bad argument (the caller prints USAGE). */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values } = parseCommandLine(argv, {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    repeat: { type: 'string' },
    'commit-interval-ms': { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
  });
  const needsValue = (name: string, raw: string | undefined) => {
    if (raw === '') throw new UsageError(`--${name} needs a value`);
    return raw;
  };
  const only = needsValue('only', values.only)
    ?.split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (only?.length === 0) throw new UsageError('--only needs at least one workload id');
  const integer = (name: string, min: number, max: number): number | null => {
    const raw = needsValue(name, values[name as 'repeat' | 'commit-interval-ms']);
    if (raw === undefined) return null;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max)
      throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return parsed;
  };
  return {
    mode: values.quick ? 'quick' : 'full',
    only: only ?? [],
    repeat: integer('repeat', 1, 20),
    commitIntervalMs: integer('commit-interval-ms', 0, 60_000),
    cpuProfile: values['cpu-prof'],
    help: values.help,
  };
}
