import { describe, expect, it } from 'vitest';
import { dashboardConfig } from '../../lib/server/dashboard-config';
import { demoAccess } from './demo-access';

describe('demoAccess', () => {
  it('makes an operator and a viewer with printed passwords when no users are configured', () => {
    let n = 0;
    const access = demoAccess(dashboardConfig.parse({}), () => `password-${++n}-xxxxxx`);
    const env = access.uiEnv();
    expect(env.WARDEN_USERS).toBe('operator:operator:password-1-xxxxxx,viewer:viewer:password-2-xxxxxx');
    expect(env.WARDEN_SESSION_SECRET?.length).toBeGreaterThanOrEqual(32);
    // What it hands the dashboard is a valid configuration.
    expect(dashboardConfig.parse(env).WARDEN_USERS?.map((u) => u.role)).toEqual(['operator', 'viewer']);
    expect(access.banner.join('\n')).toMatch(/operator \/ password-1-xxxxxx[\s\S]*viewer \/ password-2-xxxxxx/);
  });

  it('uses configured users as they are, and never invents credentials in production', () => {
    const configured = demoAccess(
      dashboardConfig.parse({ WARDEN_USERS: 'alice:operator:alice-password-1', WARDEN_SESSION_SECRET: 's'.repeat(32) }),
    );
    expect(configured.uiEnv()).toEqual({});
    expect(configured.banner.join()).toContain('alice: operator');
    expect(configured.banner.join()).not.toContain('alice-password-1');
    expect(() => demoAccess(dashboardConfig.parse({ NODE_ENV: 'production' })).uiEnv()).toThrow(
      /NODE_ENV=production.*WARDEN_USERS/,
    );
  });
});
