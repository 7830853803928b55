import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packConsumer, runCommand, writeFiles } from '@/test-support/orders-service';

// @warden/consumer as its users get it: `npm pack` (whose prepack builds dist), checked by publint and
// arethetypeswrong, installed from the tarball into an empty project next to kafkajs and TypeScript, then
// typechecked and loaded both as ES modules and as CommonJS. Needs the npm registry, not the broker.

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SETUP_TIMEOUT_MS = 600_000;

/** A user's program: the consumer with its control option, the exported types and the testing subpath. */
const PROGRAM = `import { Kafka, logLevel } from 'kafkajs';
import {
  createConsumer,
  ZInstanceState,
  type Admission,
  type Readiness,
  type SourceRecord,
  type WardenConsumer,
  type WardenConsumerOptions,
} from '@warden/consumer';
import { ManualClock } from '@warden/consumer/testing';

interface Order {
  orderId: string;
  customerId: string;
}

function admit(record: SourceRecord): Admission<Order> {
  try {
    const order = JSON.parse(record.value?.toString('utf8') ?? 'null') as Order;
    return { ok: true, value: order, orderingKey: order.customerId };
  } catch (error) {
    return { ok: false, reason: String(error), errorClass: 'malformed-json' };
  }
}

export function ordersConsumer(brokers: string[]): WardenConsumer<Order> {
  const options: WardenConsumerOptions<Order> = {
    kafka: new Kafka({ clientId: 'orders', brokers, logLevel: logLevel.NOTHING }),
    groupId: 'orders',
    topics: ['orders'],
    admit,
    handle: async (order: Order, record: SourceRecord) => {
      if (order.orderId.length === 0) throw new Error(\`no order id at offset \${record.offset}\`);
    },
    ordering: 'key',
    quarantinePolicy: 'pause',
    control: { topicPrefix: 'warden-control', commandKey: 'signing-key', stateIntervalMs: 5_000 },
  };
  return createConsumer(options);
}

const consumer = ordersConsumer(['127.0.0.1:9092']);
const readiness: Readiness = consumer.readiness();
const published: number | undefined = consumer.control?.stats().published;
const state = ZInstanceState.safeParse({ v: 1 });
const clock = new ManualClock(1_000);
clock.advance(500);
// @ts-expect-error 'sideways' is no ordering mode: the declarations are real types, not any.
const misspelt: WardenConsumerOptions<Order>['ordering'] = 'sideways';
console.log(readiness.ready, published, state.success, clock.now(), misspelt);
`;

/** Loads both entry points and builds a consumer (nothing connects); prints what resolved where. */
const LOAD_AND_BUILD = (load: string) => `${load}
const consumer = main.createConsumer({
  kafka: new kafkajs.Kafka({ clientId: 'load-check', brokers: ['127.0.0.1:1'], logLevel: kafkajs.logLevel.NOTHING }),
  groupId: 'load-check',
  topics: ['orders'],
  admit: () => ({ ok: false, reason: 'never called', errorClass: 'test' }),
  handle: async () => undefined,
  control: { topicPrefix: 'warden-control' },
});
const clock = new testing.ManualClock(42);
console.log(JSON.stringify({
  main: resolved.main,
  testing: resolved.testing,
  createConsumer: typeof main.createConsumer,
  zInstanceState: typeof main.ZInstanceState?.safeParse,
  ready: consumer.readiness().ready,
  clock: clock.now(),
}));`;

const REQUIRE_CHECK = LOAD_AND_BUILD(`const main = require('@warden/consumer');
const testing = require('@warden/consumer/testing');
const kafkajs = require('kafkajs');
const resolved = { main: require.resolve('@warden/consumer'), testing: require.resolve('@warden/consumer/testing') };`);

const IMPORT_CHECK = LOAD_AND_BUILD(`const main = await import('@warden/consumer');
const testing = await import('@warden/consumer/testing');
const { default: kafkajs } = await import('kafkajs');
const { fileURLToPath } = await import('node:url');
const resolved = {
  main: fileURLToPath(import.meta.resolve('@warden/consumer')),
  testing: fileURLToPath(import.meta.resolve('@warden/consumer/testing')),
};`);

let workDir: string;
let tarball: string;
let project: string;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'warden-pack-'));
  tarball = await packConsumer(path.join(workDir, 'pack'));
  project = path.join(workDir, 'project');
  writeFiles(project, {
    'esm/package.json': JSON.stringify({ type: 'module' }),
    'esm/program.ts': PROGRAM,
    'cjs/package.json': JSON.stringify({ type: 'commonjs' }),
    'cjs/program.ts': PROGRAM,
  });
  await runCommand('npm', ['init', '-y'], { cwd: project });
  await runCommand(
    'npm',
    ['install', '--no-audit', '--no-fund', tarball, 'kafkajs@2.2.4', 'typescript@5.9.3', '@types/node@20'],
    { cwd: project },
  );
}, SETUP_TIMEOUT_MS);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the packed @warden/consumer', () => {
  it('ships dist, README.md, CHANGELOG.md and package.json, and nothing else', async () => {
    const { stdout } = await runCommand('tar', ['-tzf', tarball], { cwd: workDir });
    const files = stdout.split('\n').filter((line) => line !== '' && !line.endsWith('/'));
    const outside = files.filter((file) => !/^package\/(dist\/.+|README\.md|CHANGELOG\.md|package\.json)$/.test(file));
    expect(outside).toEqual([]);
    expect(files.filter((file) => /\.(test|it)\.|\/testing\/fake-kafkajs|\/src\//.test(file))).toEqual([]);
    for (const entry of ['esm/index.js', 'esm/index.d.ts', 'cjs/index.js', 'cjs/index.d.ts', 'cjs/package.json'])
      expect(files).toContain(`package/dist/${entry}`);
    for (const entry of ['esm/testing.js', 'cjs/testing.js']) expect(files).toContain(`package/dist/${entry}`);
    for (const file of ['README.md', 'CHANGELOG.md', 'package.json']) expect(files).toContain(`package/${file}`);
  });

  it('passes publint, suggestions included', async () => {
    const bytes = readFileSync(tarball);
    const tarballBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const { messages, pkg } = await publint({ pack: { tarball: tarballBuffer }, level: 'suggestion', strict: true });
    expect(messages.map((message) => formatMessage(message, pkg) ?? message.code)).toEqual([]);
  });

  it('resolves to typed JavaScript in every resolution mode arethetypeswrong knows', async () => {
    // attw exits non-zero on any problem; runCommand then fails with its report.
    const { stdout } = await runCommand(
      path.join(ROOT, 'node_modules', '.bin', 'attw'),
      [tarball, '--format', 'json'],
      {
        cwd: workDir,
      },
    );
    const report = JSON.parse(stdout) as {
      analysis: {
        problems: unknown[];
        entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }>;
      };
    };
    expect(report.analysis.problems).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(['.', './package.json', './testing']);
    for (const [entrypoint, { resolutions }] of Object.entries(report.analysis.entrypoints)) {
      expect(Object.keys(resolutions).sort(), entrypoint).toEqual(['bundler', 'node10', 'node16-cjs', 'node16-esm']);
      for (const [mode, { resolution }] of Object.entries(resolutions))
        expect(resolution?.fileName, `${entrypoint} under ${mode}`).toMatch(/\.(d\.ts|json)$/);
    }
  });

  const tsc = (args: string[]) =>
    runCommand(process.execPath, [path.join('node_modules', 'typescript', 'bin', 'tsc'), ...args], { cwd: project });
  const strictCheck = ['--strict', '--noEmit', '--target', 'es2022', '--types', 'node'];

  it('typechecks a strict ES module program (type module, module nodenext)', async () => {
    await tsc([...strictCheck, '--module', 'nodenext', '--moduleResolution', 'nodenext', 'esm/program.ts']);
  });

  it('typechecks a strict CommonJS program (module commonjs, resolution node10)', async () => {
    // esModuleInterop as `tsc --init` sets it: zod's own CommonJS declarations need it under node10.
    await tsc([...strictCheck, '--module', 'commonjs', '--esModuleInterop', 'cjs/program.ts']);
  });

  it('typechecks a strict CommonJS program (module node16 in a commonjs package)', async () => {
    await tsc([...strictCheck, '--module', 'node16', '--moduleResolution', 'node16', 'cjs/program.ts']);
  });

  it('refuses a program that misuses the types (the check above can fail)', async () => {
    writeFiles(project, {
      'esm/misuse.ts': `import { createConsumer } from '@warden/consumer';\ncreateConsumer({ groupId: 42 });\n`,
    });
    await expect(
      tsc([...strictCheck, '--module', 'nodenext', '--moduleResolution', 'nodenext', 'esm/misuse.ts']),
    ).rejects.toThrow(/error TS/);
  });

  it(`loads with require() as CommonJS and with import() as ES modules on Node ${process.versions.node}`, async () => {
    expect(process.versions.node.split('.')[0]).toBe('20');
    const required = JSON.parse((await runCommand(process.execPath, ['-e', REQUIRE_CHECK], { cwd: project })).stdout);
    const imported = JSON.parse(
      (await runCommand(process.execPath, ['--input-type=module', '-e', IMPORT_CHECK], { cwd: project })).stdout,
    );
    const installed = path.join(project, 'node_modules', '@warden', 'consumer', 'dist');
    expect(required).toEqual({
      main: path.join(installed, 'cjs', 'index.js'),
      testing: path.join(installed, 'cjs', 'testing.js'),
      createConsumer: 'function',
      zInstanceState: 'function',
      ready: false,
      clock: 42,
    });
    expect(imported).toEqual({
      ...required,
      main: path.join(installed, 'esm', 'index.js'),
      testing: path.join(installed, 'esm', 'testing.js'),
    });
  });
});
