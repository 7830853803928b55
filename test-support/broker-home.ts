import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * The jars of a broker home npm test (or the demo) already installed, linked into `home` so a test's own
 * broker starts without another Maven resolution; without one, broker.sh installs them itself.
 */
export function linkInstalledJars(home: string, installedHome: string | undefined): void {
  const candidates = [installedHome, path.resolve(__dirname, '..', '.warden', 'kafka')].filter(
    (h): h is string => !!h && existsSync(h),
  );
  for (const candidate of candidates) {
    const libs = readdirSync(candidate).filter(
      (name) =>
        /^libs-[^/]+$/.test(name) && !name.includes('.tmp') && existsSync(path.join(candidate, name, '.pom.sha256')),
    );
    if (libs.length === 0) continue;
    for (const name of libs) symlinkSync(path.join(candidate, name), path.join(home, name));
    return;
  }
}
