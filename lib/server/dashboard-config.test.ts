import { describe, expect, it } from 'vitest';
import { dashboardConfig } from './dashboard-config';

const parse = dashboardConfig.parse;

describe("the dashboard's configuration", () => {
  it('reads its port, refresh and access settings with their defaults', () => {
    expect(parse({})).toMatchObject({
      UI_PORT: 3000,
      UI_REFRESH_MS: 3000,
      WARDEN_USERS: null,
      WARDEN_COOKIE_SECURE: 'auto',
      WARDEN_ALLOWED_ORIGINS: [],
      WARDEN_PAYLOAD_ACCESS: 'viewer',
      NODE_ENV: 'development',
    });
  });

  it('never quotes the session secret, and refuses an origin with a path', () => {
    expect(() => parse({ WARDEN_SESSION_SECRET: 'short' })).toThrow(
      /WARDEN_SESSION_SECRET=\(set; value not shown\): must be at least 32/,
    );
    expect(() => parse({ WARDEN_ALLOWED_ORIGINS: 'https://warden.example.com/' })).toThrow(
      /WARDEN_ALLOWED_ORIGINS=.*is not an origin/,
    );
  });

  it("starts whatever the worker's, the demo's or npm test's variables say", () => {
    const config = parse({
      WARDEN_ORDERING: 'random',
      WORKER_PORT: '70000',
      ALERT_SETTINGS: '{oops',
      DEMO_SCENARIO: 'chaos',
      WARDEN_TEST_PORT_BASE: '80',
      WARDEN_FUZZ_SEED: '-1',
    });
    expect(config.UI_REFRESH_MS).toBe(3_000);
    expect(Object.keys(config)).not.toContain('WARDEN_ORDERING');
    expect(Object.keys(config)).not.toContain('DEMO_SCENARIO');
  });
});
