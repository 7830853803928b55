import { loadDashboardConfig, type DashboardConfig } from '../dashboard-config';
import type { AuthSettings } from './access';

// The dashboard's access settings from the configuration. The dashboard has no open mode: without users and a
// session secret it refuses to start (instrumentation.ts) and every request fails, whatever NODE_ENV says.
// `npm run demo` and the test runner provide generated credentials themselves.

export type AuthSettingsResult = { ok: true; settings: AuthSettings } | { ok: false; problems: string[] };

export function authSettingsFrom(config: DashboardConfig): AuthSettingsResult {
  const problems: string[] = [];
  if (!config.WARDEN_USERS) {
    problems.push(
      'WARDEN_USERS is not set, so nobody could sign in. Set it to name:role:password entries, e.g. ' +
        'WARDEN_USERS=alice:operator:<scrypt hash from npm run auth:hash>,bob:viewer:<12+ character password> ' +
        '(npm run demo sets demo users by itself)',
    );
  }
  if (!config.WARDEN_SESSION_SECRET) {
    problems.push(
      'WARDEN_SESSION_SECRET is not set: the session cookie needs a key of at least 32 characters, e.g. WARDEN_SESSION_SECRET=$(openssl rand -base64 32)',
    );
  }
  if (problems.length > 0 || !config.WARDEN_USERS || !config.WARDEN_SESSION_SECRET) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      users: config.WARDEN_USERS,
      tokens: config.WARDEN_API_TOKENS ?? [],
      sessionSecret: config.WARDEN_SESSION_SECRET,
      sessionMaxAgeSec: config.WARDEN_SESSION_MAX_AGE_SEC,
      sessionIdleSec: config.WARDEN_SESSION_IDLE_SEC,
      cookieSecure: config.WARDEN_COOKIE_SECURE,
      allowedOrigins: config.WARDEN_ALLOWED_ORIGINS,
    },
  };
}

/** Why the dashboard cannot serve, as one message for the start-up log; null when it can. */
export function dashboardStartupProblem(): string | null {
  let result: AuthSettingsResult;
  try {
    result = authSettingsFrom(loadDashboardConfig());
  } catch (error) {
    return (error as Error).message;
  }
  if (result.ok) return null;
  return `Warden dashboard refuses to start without access control:\n${result.problems.map((p) => `  - ${p}`).join('\n')}`;
}

/** The access settings of this process; throws (a 500 for the caller) when the configuration lacks them. */
export function loadAuthSettings(): AuthSettings {
  const result = authSettingsFrom(loadDashboardConfig());
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.settings;
}
