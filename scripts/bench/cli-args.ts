import type { BenchMode } from './plan';

// Command line of `npm run bench`.

export const USAGE = `usage: npm run bench [-- [--quick] [--only 1,2,7] [--repeat N] [--commit-interval-ms MS] [--cpu-prof]]
  --quick                 small sizes, one round: about a minute, a smoke test
  --only IDS              run only these workloads (1 comes along with any throughput workload: every ratio is
                          to it; 7 brings 2; 10 sampler round, 11a/11b group-page reads run alone)
  --repeat N              rounds of the throughput workloads (default: 3 full, 1 quick); rows show the median round
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

/** Parses the bench's arguments; throws an Error naming the bad argument (the caller prints USAGE). */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    mode: 'full',
    only: [],
    repeat: null,
    commitIntervalMs: null,
    cpuProfile: false,
    help: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++index];
      if (next === undefined || next === '') throw new Error(`${name} needs a value`);
      return next;
    };
    switch (name) {
      case '--quick':
        args.mode = 'quick';
        break;
      case '--help':
      case '-h':
        args.help = true;
        break;
      case '--only':
        args.only = value()
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== '');
        if (args.only.length === 0) throw new Error('--only needs at least one workload id');
        break;
      case '--repeat': {
        const raw = value();
        const repeat = Number(raw);
        if (!Number.isInteger(repeat) || repeat < 1 || repeat > 20)
          throw new Error(`--repeat must be an integer from 1 to 20, got "${raw}"`);
        args.repeat = repeat;
        break;
      }
      case '--commit-interval-ms': {
        const raw = value();
        const ms = Number(raw);
        if (!Number.isInteger(ms) || ms < 0 || ms > 60_000)
          throw new Error(`--commit-interval-ms must be an integer from 0 to 60000, got "${raw}"`);
        args.commitIntervalMs = ms;
        break;
      }
      case '--cpu-prof':
        args.cpuProfile = true;
        break;
      default:
        throw new Error(`unknown argument "${arg}"`);
    }
  }
  return args;
}
