import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/program-config';
import { dashboardConfig } from '../dashboard-config';
import { authSettingsFrom } from './auth-settings';

const SECRET = 'a-session-secret-of-32-characters!';

describe('access configuration', () => {
  it('parses users, tokens, the session settings and allowed origins', () => {
    const config = dashboardConfig.parse({
      WARDEN_USERS: 'olga:operator:olga-password-1,vic:viewer:vic-password-12',
      WARDEN_API_TOKENS: `ci:viewer:${'t'.repeat(32)}`,
      WARDEN_SESSION_SECRET: SECRET,
      WARDEN_ALLOWED_ORIGINS: 'https://warden.example.com, http://10.0.0.5:8080',
    });
    const result = authSettingsFrom(config);
    if (!result.ok) throw new Error(result.problems.join());
    expect(result.settings.users.map((u) => `${u.name}:${u.role}`)).toEqual(['olga:operator', 'vic:viewer']);
    expect(result.settings.tokens.map((t) => t.name)).toEqual(['ci']);
    expect(result.settings).toMatchObject({
      sessionMaxAgeSec: 43_200,
      cookieSecure: 'auto',
      allowedOrigins: ['https://warden.example.com', 'http://10.0.0.5:8080'],
    });
  });

  it('the dashboard cannot run without users and a session secret, and says how to set them', () => {
    const result = authSettingsFrom(dashboardConfig.parse({}));
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems[0]).toMatch(/^WARDEN_USERS is not set.*npm run auth:hash.*npm run demo/);
    expect(problems[1]).toMatch(/^WARDEN_SESSION_SECRET is not set.*openssl rand/);
    // The worker and scripts do not need them: the rest of the configuration still parses.
    expect(dashboardConfig.parse({}).WARDEN_USERS).toBeNull();
  });

  it('never quotes a secret variable in a configuration error', () => {
    let error: unknown;
    try {
      dashboardConfig.parse({
        WARDEN_USERS: 'olga:admin:hunter2-hunter2',
        WARDEN_SESSION_SECRET: 'too-short-secret',
        WARDEN_API_TOKENS: 'ci:viewer:tiny',
        WARDEN_ALLOWED_ORIGINS: 'https://x.example/path',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as ConfigError).message;
    expect(text).toContain(
      'WARDEN_USERS=(set; value not shown): entry 1 ("olga"): the role must be viewer or operator',
    );
    expect(text).toContain('WARDEN_SESSION_SECRET=(set; value not shown): must be at least 32 characters');
    expect(text).toContain(
      'WARDEN_API_TOKENS=(set; value not shown): entry 1 ("ci"): the token must be at least 32 characters',
    );
    expect(text).toContain(
      'WARDEN_ALLOWED_ORIGINS="https://x.example/path": "https://x.example/path" is not an origin',
    );
    expect(text).not.toMatch(/hunter2|too-short-secret|tiny/);
  });
});
