import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from './package-version.js';

describe('PACKAGE_VERSION', () => {
  it("is the version in the package's package.json", () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(PACKAGE_VERSION).toBe(manifest.version);
  });
});
