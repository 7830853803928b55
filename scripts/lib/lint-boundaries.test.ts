import { ESLint } from 'eslint';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The import boundaries of eslint.config.mjs, proven on code that breaks them: each probe is linted as if
// it were the named file (type-aware rules off, so no TypeScript program is built).

const ROOT = path.resolve(__dirname, '..', '..');
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
        "import { loadConfig } from '../../../../lib/config';",
        'export const k = [Kafka, loadConfig];',
        'setTimeout(() => undefined, 1);',
        'export const env = process.env;',
        'export const now = Date.now();',
        '',
      ].join('\n'),
    );
    expect(errors).toHaveLength(5);
    expect(errors.filter((e) => e.includes('The core imports nothing outside src/core'))).toHaveLength(2);
  });

  it('keep the consumer package apart: nothing of the repository, nothing of the stack, its own name elsewhere', async () => {
    const apart = expect.stringContaining('@warden/consumer imports nothing of the rest of the repository');
    expect(
      await boundaryErrors(
        'packages/consumer/src/control/probe.ts',
        "export { loadConfig } from '../../../../lib/config';\n",
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

  it('allow what the layers permit', async () => {
    expect(
      await boundaryErrors('worker/sampler/probe.ts', "export type { Readiness } from '../shared/worker-types';\n"),
    ).toEqual([]);
    expect(await boundaryErrors('worker/kafka/probe.ts', "export { ConsumerCore } from '@warden/consumer';\n")).toEqual(
      [],
    );
    expect(await boundaryErrors('lib/server/probe.ts', "export { loadConfig } from '../config';\n")).toEqual([]);
  });
});
