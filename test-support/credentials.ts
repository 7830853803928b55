// The dashboard's users and API tokens during the end-to-end suite (playwright.config.ts hands them to
// `next start`) and the scripts that measure a dashboard over HTTP (the bench, lighthouse). Test-only values:
// they protect nothing but a throwaway server.

export interface E2eUser {
  name: string;
  role: 'operator' | 'viewer';
  password: string;
}

export const OPERATOR: E2eUser = { name: 'e2e-operator', role: 'operator', password: 'operator-password-e2e' };
export const VIEWER: E2eUser = { name: 'e2e-viewer', role: 'viewer', password: 'viewer-password-e2e' };
export const OPERATOR_TOKEN = 'e2e-operator-token-0123456789abcdefghijkl';
export const VIEWER_TOKEN = 'e2e-viewer-token-0123456789abcdefghijklmno';

export const E2E_ACCESS_ENV = {
  WARDEN_USERS: [OPERATOR, VIEWER].map((u) => `${u.name}:${u.role}:${u.password}`).join(','),
  WARDEN_API_TOKENS: `e2e-bot:operator:${OPERATOR_TOKEN},e2e-ci:viewer:${VIEWER_TOKEN}`,
  WARDEN_SESSION_SECRET: 'e2e-session-secret-that-is-long-enough-0123456789',
};

/** Headers of an API request authenticated by a bearer token (a non-browser client: no Origin needed). */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
