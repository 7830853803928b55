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
    expect(await boundaryErrors('lib/probe.ts', "export { ConsumerCore } from '../worker/core';\n")).toEqual([
      expect.stringContaining('lib, app and components never import worker/'),
    ]);
    expect(
      await boundaryErrors('components/probe.tsx', "export { ConsumerCore } from '@/worker/core';\n"),
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

  it('keep worker/core pure: no imports from outside it, no global timers, no process, no Date.now', async () => {
    const errors = await boundaryErrors(
      'worker/core/probe.ts',
      [
        "import { Kafka } from 'kafkajs';",
        "import { loadConfig } from '../../lib/config';",
        'export const k = [Kafka, loadConfig];',
        'setTimeout(() => undefined, 1);',
        'export const env = process.env;',
        'export const now = Date.now();',
        '',
      ].join('\n'),
    );
    expect(errors).toHaveLength(5);
    expect(errors.filter((e) => e.includes('worker/core imports nothing outside'))).toHaveLength(2);
  });

  it("keep the kafkajs adapter's clock-driven parts on the injected clock", async () => {
    const errors = await boundaryErrors(
      'worker/kafka/consumer-supervisor.ts',
      ['setInterval(() => undefined, 1);', 'export const now = Date.now();', ''].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringContaining('use the injected Clock'),
      expect.stringContaining('Use the injected Clock'),
    ]);
  });

  it("let the core's tests import the shared seeded random and nothing else from outside the core", async () => {
    expect(
      await boundaryErrors(
        'worker/core/probe.test.ts',
        "export { seededRandom } from '../../test-support/seeded-random';\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'worker/core/probe.test.ts',
        "export { createDatabase } from '../../test-support/database';\n",
      ),
    ).toEqual([expect.stringContaining('worker/core tests import nothing outside worker/core')]);
    expect(await boundaryErrors('worker/core/probe.test.ts', "export { Kafka } from 'kafkajs';\n")).toHaveLength(1);
  });

  it('refuse one worker adapter importing another', async () => {
    expect(
      await boundaryErrors(
        'worker/sampler/probe.ts',
        "export type { WardenConsumer } from '../kafka/warden-consumer';\n",
      ),
    ).toEqual([expect.stringContaining('worker/sampler shares types with other adapters only through worker/shared')]);
  });

  it('allow what the layers permit', async () => {
    expect(
      await boundaryErrors('worker/sampler/probe.ts', "export type { Readiness } from '../shared/worker-types';\n"),
    ).toEqual([]);
    expect(await boundaryErrors('worker/kafka/probe.ts', "export { ConsumerCore } from '../core';\n")).toEqual([]);
    expect(await boundaryErrors('lib/server/probe.ts', "export { loadConfig } from '../config';\n")).toEqual([]);
  });
});
