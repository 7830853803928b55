import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The import boundaries of eslint.config.mjs, proven on code that breaks them: each probe is linted as if
// it were the named file (type-aware rules off, so no TypeScript program is built).

const ROOT = path.resolve(__dirname, '..', '..');
const folders = (under: string) =>
  readdirSync(path.join(ROOT, under), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
/** lib folders that do I/O (Postgres, Kafka, files, the environment): every other lib folder is pure. */
const IO_LIB_FOLDERS = ['config', 'generated', 'groups', 'kafka', 'openapi', 'server'];
const eslint = new ESLint({ cwd: ROOT, overrideConfig: [tseslint.configs.disableTypeChecked] });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId?.startsWith('no-restricted-'))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import boundaries', { timeout: 60_000 }, () => {
  it('refuse lib importing worker, by relative path and by alias', async () => {
    expect(await boundaryErrors('lib/probe.ts', "export { WardenWorker } from '../worker/worker';\n")).toEqual([
      expect.stringContaining('lib, app and components never import worker/'),
    ]);
    expect(
      await boundaryErrors('components/probe.tsx', "export { WardenWorker } from '@/worker/worker';\n"),
    ).toHaveLength(1);
  });

  it('refuse the UI reaching Kafka or Postgres except through lib/server', async () => {
    expect(await boundaryErrors('app/probe.tsx', "export { Kafka } from 'kafkajs';\n")).toEqual([
      expect.stringContaining('only through lib/server'),
    ]);
  });

  it("keep zod off the browser's start-up: schema types and plain values only, outside browser-schemas.ts", async () => {
    const refused = expect.stringContaining('A page starts without zod');
    expect(
      await boundaryErrors('components/probe.tsx', "export { ZGroupDetail } from '@/lib/schemas/groups';\n"),
    ).toEqual([refused]);
    expect(
      await boundaryErrors('app/probe/page-client.tsx', "import { z } from 'zod';\nexport const s = z.string();\n"),
    ).toEqual([refused]);
    expect(
      await boundaryErrors(
        'components/probe.tsx',
        [
          "import type { TGroupDetail } from '@/lib/schemas/groups';",
          "import { DEFAULT_CLUSTER } from '@/lib/schemas/values';",
          'export const probe: [TGroupDetail | null, string] = [null, DEFAULT_CLUSTER];',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('components/browser-schemas.ts', "export { ZGroupDetail } from '@/lib/schemas/groups';\n"),
    ).toEqual([]);
    // A page's server module reads its data with the schemas.
    expect(
      await boundaryErrors('app/probe/page.tsx', "export { ZGroupDetail } from '@/lib/schemas/groups';\n"),
    ).toEqual([]);
  });

  it('link between pages only through AppLink, which never prefetches', async () => {
    const refused = expect.stringContaining('Link between pages with AppLink');
    expect(await boundaryErrors('app/probe/page-client.tsx', "export { default } from 'next/link';\n")).toEqual([
      refused,
    ]);
    expect(await boundaryErrors('app/layout.tsx', "export { default } from 'next/link';\n")).toEqual([refused]);
    expect(await boundaryErrors('components/app-link.tsx', "export { default } from 'next/link';\n")).toEqual([]);
  });

  it('keep the core pure: no imports from outside it, no global timers, no process, no Date.now', async () => {
    const errors = await boundaryErrors(
      'packages/consumer/src/core/probe.ts',
      [
        "import { Kafka } from 'kafkajs';",
        "import { loadWorkerConfig } from '../../../../worker/config';",
        'export const k = [Kafka, loadWorkerConfig];',
        'setTimeout(() => undefined, 1);',
        'export const env = process.env;',
        'export const now = Date.now();',
        '',
      ].join('\n'),
    );
    // kafkajs, lib/config, setTimeout, process (the global and its env) and Date.now.
    expect(errors).toHaveLength(6);
    expect(errors.filter((e) => e.includes('The core imports nothing outside src/core'))).toHaveLength(2);
  });

  it('keep the consumer package apart: nothing of the repository, nothing of the stack, its own name elsewhere', async () => {
    const apart = expect.stringContaining('@warden/consumer imports nothing of the rest of the repository');
    expect(
      await boundaryErrors(
        'packages/consumer/src/control/probe.ts',
        "export { loadWorkerConfig } from '../../../../worker/config';\n",
      ),
    ).toEqual([apart]);
    expect(await boundaryErrors('packages/consumer/src/kafkajs/probe.ts', "export { Pool } from 'pg';\n")).toEqual([
      expect.stringContaining('@warden/consumer depends on kafkajs (peer) and zod only'),
    ]);
    expect(
      await boundaryErrors('packages/consumer/src/kafkajs/probe.ts', "export type { Kafka } from 'kafkajs';\n"),
    ).toEqual([]);
    const [relative] = await eslint.lintText("export { createConsumer } from '../packages/consumer/src/index';\n", {
      filePath: path.join(ROOT, 'worker/probe.ts'),
    });
    expect(relative?.messages.map((m) => m.ruleId)).toContain('import-x/no-relative-packages');
  });

  it("keep the kafkajs adapter's clock-driven parts on the injected clock", async () => {
    const errors = await boundaryErrors(
      'packages/consumer/src/kafkajs/consumer-supervisor.ts',
      ['setInterval(() => undefined, 1);', 'export const now = Date.now();', ''].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringContaining('use the injected Clock'),
      expect.stringContaining('Use the injected Clock'),
    ]);
  });

  it("keep the core's tests inside the core", async () => {
    expect(
      await boundaryErrors(
        'packages/consumer/src/core/probe.test.ts',
        "export { seededRandom } from './testing/seeded-random';\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'packages/consumer/src/core/probe.test.ts',
        "export { createDatabase } from '../../../../test-support/database';\n",
      ),
    ).toEqual([expect.stringContaining('The core tests import nothing outside src/core')]);
    expect(
      await boundaryErrors('packages/consumer/src/core/probe.test.ts', "export { Kafka } from 'kafkajs';\n"),
    ).toHaveLength(1);
  });

  it('refuse one worker adapter importing another', async () => {
    expect(
      await boundaryErrors('worker/sampler/probe.ts', "export { ensureTopics } from '../kafka/topics';\n"),
    ).toEqual([expect.stringContaining('worker/sampler shares types with other adapters only through worker/shared')]);
  });

  it('cover every folder under worker/ but shared by the adapter rule', async () => {
    const adapters = folders('worker').filter((name) => name !== 'shared');
    // alerts, offsets-topic and redrive were once left out of a hand-written list.
    expect(adapters).toEqual(expect.arrayContaining(['alerts', 'offsets-topic', 'redrive', 'sampler', 'kafka']));
    for (const adapter of adapters) {
      const other = adapters.find((name) => name !== adapter)!;
      expect(
        await boundaryErrors(`worker/${adapter}/probe.ts`, `export * from '../${other}/probe';\n`),
        `worker/${adapter} importing worker/${other}`,
      ).toEqual([
        expect.stringContaining(`worker/${adapter} shares types with other adapters only through worker/shared`),
      ]);
      expect(await boundaryErrors(`worker/${adapter}/probe.ts`, "export * from '../shared/worker-types';\n")).toEqual(
        [],
      );
    }
  });

  it('refuse the worker importing lib/server, adapters and wiring alike; its integration tests may', async () => {
    const refused = expect.stringContaining('worker/ never imports lib/server');
    expect(
      await boundaryErrors('worker/alerts/probe.ts', "export { listGroups } from '../../lib/server/list-groups';\n"),
    ).toEqual([refused]);
    expect(
      await boundaryErrors('worker/probe.ts', "export { listGroups } from '../lib/server/list-groups';\n"),
    ).toEqual([refused]);
    // The adapter rule still holds beside it (the two compose in one block).
    expect(
      await boundaryErrors(
        'worker/alerts/probe.ts',
        "export { listGroups } from '../../lib/server/list-groups';\nexport * from '../sampler/lag-sampler';\n",
      ),
    ).toHaveLength(2);
    expect(
      await boundaryErrors(
        'worker/alerts/probe.ts',
        "export { summarizeGroups } from '../../lib/groups/summarize-groups';\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('worker/alerts/probe.it.ts', "export { listGroups } from '../../lib/server/list-groups';\n"),
    ).toEqual([]);
  });

  it('make the kafkajs adapter and the control plane reach the core through its index only', async () => {
    const refused = expect.stringContaining('reach the core only through src/core/index.ts');
    expect(
      await boundaryErrors(
        'packages/consumer/src/kafkajs/probe.ts',
        "export type { Clock } from '../core/types.js';\n",
      ),
    ).toEqual([refused]);
    expect(
      await boundaryErrors(
        'packages/consumer/src/control/probe.ts',
        "export { ConsumerCore } from '../core/consumer-core.js';\n",
      ),
    ).toEqual([refused]);
    expect(
      await boundaryErrors(
        'packages/consumer/src/control/probe.ts',
        "export { ManualClock } from '../core/testing/fake-clock.js';\n",
      ),
    ).toEqual([refused]);
    expect(
      await boundaryErrors(
        'packages/consumer/src/kafkajs/probe.ts',
        "export type { Clock } from '../core/index.js';\n",
      ),
    ).toEqual([]);
    // The package's older rules still hold in the same files.
    expect(
      await boundaryErrors(
        'packages/consumer/src/control/probe.ts',
        "export type { Clock } from '../core/types.js';\nexport { Pool } from 'pg';\n",
      ),
    ).toHaveLength(2);
    // Tests and fakes may use the core's testing helpers, still not its internals.
    const testRefused = expect.stringContaining('src/core/index.ts and src/core/testing/ only');
    expect(
      await boundaryErrors(
        'packages/consumer/src/control/probe.test.ts',
        "export { ManualClock } from '../core/testing/fake-clock.js';\nexport type { Clock } from '../core/index.js';\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'packages/consumer/src/kafkajs/probe.test.ts',
        "export type { Clock } from '../core/types.js';\n",
      ),
    ).toEqual([testRefused]);
    expect(
      await boundaryErrors(
        'packages/consumer/src/kafkajs/testing/probe.ts',
        "export { ManualClock } from '../../core/testing/fake-clock.js';\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'packages/consumer/src/kafkajs/testing/probe.ts',
        "export type { Clock } from '../../core/types.js';\n",
      ),
    ).toEqual([testRefused]);
  });

  it('keep the pure lib folders free of Prisma, lib/server, kafkajs, pg and files', async () => {
    const pure = folders('lib').filter((name) => !IO_LIB_FOLDERS.includes(name));
    expect(pure).toEqual(expect.arrayContaining(['advisor', 'analysis', 'charts', 'lag', 'rebalances', 'schemas']));
    const refused = expect.stringContaining('This lib folder is pure (no I/O)');
    for (const folder of pure) {
      const errors = await boundaryErrors(
        `lib/${folder}/probe.ts`,
        [
          "import { createDatabase } from '../db';",
          "import { Prisma } from '../generated/prisma/client';",
          "import { PrismaPg } from '@prisma/adapter-pg';",
          "import { listGroups } from '../server/list-groups';",
          "import { getGroupDetail } from '@/lib/server/get-group-detail';",
          "import { summarizeGroups } from '../groups/summarize-groups';",
          "import { Kafka } from 'kafkajs';",
          "import { Pool } from 'pg';",
          "import { readFileSync } from 'node:fs';",
          'export const probe = [createDatabase, Prisma, PrismaPg, listGroups, getGroupDetail, summarizeGroups, Kafka, Pool, readFileSync];',
          '',
        ].join('\n'),
      );
      expect(errors, `lib/${folder}`).toEqual(Array.from({ length: 9 }, () => refused));
      // lib never importing worker/ still holds there.
      expect(
        await boundaryErrors(`lib/${folder}/probe.ts`, "export { WardenWorker } from '../../worker/worker';\n"),
      ).toEqual([expect.stringContaining('lib, app and components never import worker/')]);
      expect(
        await boundaryErrors(
          `lib/${folder}/probe.ts`,
          "export { ZGroupSummary } from '../schemas/groups';\nexport { formatNumber } from '../format';\n",
        ),
      ).toEqual([]);
    }
    // An I/O folder may read Postgres.
    expect(await boundaryErrors('lib/groups/probe.ts', "export { createDatabase } from '../db';\n")).toEqual([]);
  });

  it('refuse scripts importing the end-to-end suite, and test-support importing scripts', async () => {
    expect(
      await boundaryErrors('scripts/bench/workloads/probe.ts', "export { OPERATOR } from '../../../e2e/support';\n"),
    ).toEqual([expect.stringContaining('scripts never import e2e/')]);
    expect(
      await boundaryErrors('scripts/lib/probe.ts', "export { OPERATOR } from '../../test-support/credentials';\n"),
    ).toEqual([]);
    expect(
      await boundaryErrors('test-support/probe.ts', "export { startLocalBroker } from '../scripts/lib/broker';\n"),
    ).toEqual([expect.stringContaining('test-support never imports scripts/')]);
    expect(await boundaryErrors('test-support/probe.ts', "export { eventually } from './eventually';\n")).toEqual([]);
  });

  it('read the environment only in lib/config/program-config.ts', async () => {
    const refused = expect.stringContaining('Only lib/config/program-config.ts reads the environment');
    for (const file of ['worker/probe.ts', 'lib/server/probe.ts', 'scripts/probe.ts', 'test-support/probe.ts']) {
      expect(await boundaryErrors(file, 'export const port = process.env.WORKER_PORT;\n'), file).toEqual([refused]);
    }
    expect(
      await boundaryErrors('lib/config/program-config.ts', 'export const port = process.env.WORKER_PORT;\n'),
    ).toEqual([]);
    // The package's clock rules still hold beside it (the two compose in one block).
    expect(
      await boundaryErrors(
        'packages/consumer/src/kafkajs/consumer-supervisor.ts',
        'export const env = process.env;\nexport const now = Date.now();\n',
      ),
    ).toEqual([refused, expect.stringContaining('Use the injected Clock')]);
  });

  it('allow what the layers permit', async () => {
    expect(
      await boundaryErrors('worker/sampler/probe.ts', "export type { Readiness } from '../shared/worker-types';\n"),
    ).toEqual([]);
    expect(await boundaryErrors('worker/kafka/probe.ts', "export { ConsumerCore } from '@warden/consumer';\n")).toEqual(
      [],
    );
    expect(
      await boundaryErrors('lib/server/probe.ts', "export { loadDashboardConfig } from './dashboard-config';\n"),
    ).toEqual([]);
  });
});
