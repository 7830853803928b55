import { randomBytes } from 'node:crypto';
import type { DashboardConfig } from '../../lib/server/dashboard-config';

// Sign-in for `npm run demo`. The dashboard has no open mode (lib/server/auth/auth-settings.ts), so when
// WARDEN_USERS is not set the demo makes two users for this run, `operator` and `viewer`, with random
// passwords it prints, and a random session secret (sessions end with the run). It never invents credentials
// when NODE_ENV=production: there, configure WARDEN_USERS and WARDEN_SESSION_SECRET yourself.

export interface DemoAccess {
  /** Variables for the dashboard process; throws when the demo must not invent credentials. */
  uiEnv(): Record<string, string>;
  /** Lines for the "demo: up" banner. */
  banner: string[];
}

const password = () => randomBytes(12).toString('base64url');

export function demoAccess(
  config: Pick<DashboardConfig, 'WARDEN_USERS' | 'WARDEN_SESSION_SECRET' | 'NODE_ENV'>,
  makePassword = password,
): DemoAccess {
  const secret: Record<string, string> = config.WARDEN_SESSION_SECRET
    ? {}
    : { WARDEN_SESSION_SECRET: randomBytes(32).toString('base64url') };
  if (config.WARDEN_USERS) {
    return {
      uiEnv: () => secret,
      banner: [
        `  sign in   with a user of WARDEN_USERS (${config.WARDEN_USERS.map((u) => `${u.name}: ${u.role}`).join(', ')})`,
      ],
    };
  }
  if (config.NODE_ENV === 'production') {
    return {
      uiEnv: () => {
        throw new Error(
          'WARDEN_USERS is not set and NODE_ENV=production: the demo does not make up credentials for production; set WARDEN_USERS and WARDEN_SESSION_SECRET',
        );
      },
      banner: [],
    };
  }
  const operator = makePassword();
  const viewer = makePassword();
  return {
    uiEnv: () => ({ ...secret, WARDEN_USERS: `operator:operator:${operator},viewer:viewer:${viewer}` }),
    banner: [
      `  sign in   operator / ${operator}  (may resume, skip, seek, reset offsets)`,
      `            viewer / ${viewer}  (read only); passwords made for this run`,
    ],
  };
}
