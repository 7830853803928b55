// Builds dist/esm (ES modules) and dist/cjs (CommonJS) with the TypeScript compiler, each with its own type
// declarations; dist/cjs gets a package.json marking its files CommonJS. No bundler: the output keeps one
// file per source file, so a stack trace names the file a reader will find in src/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
for (const project of ['tsconfig.build.json', 'tsconfig.cjs.json']) {
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
}
mkdirSync(path.join(root, 'dist', 'cjs'), { recursive: true });
writeFileSync(path.join(root, 'dist', 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
