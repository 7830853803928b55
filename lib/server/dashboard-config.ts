import { z } from 'zod';
import { parseTokens, parseUsers, type ParseResult } from '../auth/credentials';
import {
  analysisPart,
  configPart,
  databasePart,
  deadLetterPart,
  defineProgramConfig,
  kafkaPart,
  port,
  positiveMs,
  samplingPart,
  setting,
} from '../config/base';

// The dashboard's configuration (`npm run dev` / `npm start`: the pages, the API and the proxy): the shared
// base (Postgres, Kafka for offset resets and dead letters, sampling, the analysis settings, the dead-letter
// topic) and its own parts, below. It reads nothing of the worker's, the demo's, the bench's or npm test's
// variables, so none of them can stop it.

/** A credential list (WARDEN_USERS, WARDEN_API_TOKENS); its problems never quote the secrets. */
const credentialList = <T>(parse: (value: string) => ParseResult<T>) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return null;
      const parsed = parse(value);
      if (parsed.ok) return parsed.value;
      for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    });

const originList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return [];
    const origins = value.split(',').map((o) => o.trim());
    for (const origin of origins) {
      let canonical: string | null;
      try {
        canonical = new URL(origin).origin;
      } catch {
        canonical = null;
      }
      if (canonical === null || canonical === 'null' || canonical !== origin) {
        ctx.addIssue({
          code: 'custom',
          message: `"${origin}" is not an origin (scheme://host[:port], no path or trailing slash)`,
        });
        return z.NEVER;
      }
    }
    return origins;
  });

export const dashboardPart = configPart({
  id: 'dashboard-server',
  title: "The dashboard's server",
  about: 'Its port when a script starts it, how often its pages poll, and the mode Next.js runs it in.',
  shape: {
    UI_PORT: setting(port(3000), {
      description:
        'dashboard port when a script starts it (`npm run demo`, the end-to-end suite); `npm run dev` and `npm start` listen on 3000',
      example: '3000',
    }),
    UI_REFRESH_MS: setting(positiveMs(3_000), { description: 'dashboard polling interval', example: '3000' }),
    NODE_ENV: setting(z.string().default('development'), {
      description:
        'set by `next start` (production) and `next dev`; any value is accepted, only `production` and `development` matter (the demo makes up sign-in credentials only outside production)',
      example: 'production',
    }),
  },
});

export const accessPart = configPart({
  id: 'dashboard-access',
  title: "The dashboard's access",
  about:
    'Who may sign in and with what (lib/server/auth/); the dashboard refuses to start without users and a session secret. See [Access](access.md).',
  shape: {
    WARDEN_USERS: setting(credentialList(parseUsers), {
      description:
        'who may sign in: comma-separated `name:role:secret`, role `viewer` or `operator`, secret a password of 12+ characters (no comma) or an `npm run auth:hash` hash `scrypt:N:r:p:<salt>:<hash>`',
      example: 'alice:operator:scrypt:32768:8:1:<salt>:<hash>,bob:viewer:<password of 12+ characters>',
      unset: 'the dashboard does not start',
      secret: true,
    }),
    WARDEN_API_TOKENS: setting(credentialList(parseTokens), {
      description:
        'API clients: comma-separated `name:role:token`, token of 32+ characters or its `sha256:<hex>` (`npm run auth:hash -- --token`); sent as `Authorization: Bearer <token>`, audited as `token:<name>`',
      example: 'ci:viewer:sha256:<64 hex digits from npm run auth:hash -- --token>',
      unset: 'no tokens',
      secret: true,
    }),
    WARDEN_SESSION_SECRET: setting(
      z.string().min(32, 'must be at least 32 characters (openssl rand -base64 32 makes one)').optional(),
      {
        description:
          "HMAC key binding each stored session to the user's configured entry, 32+ characters (`openssl rand -base64 32`); changing it signs everyone out",
        example: '<openssl rand -base64 32>',
        unset: 'the dashboard does not start',
        secret: true,
      },
    ),
    WARDEN_SESSION_MAX_AGE_SEC: setting(
      z.coerce
        .number()
        .int()
        .min(60)
        .max(30 * 86_400)
        .default(43_200),
      {
        description: 'a session ends this long after sign-in (12 h; not extended by use)',
        example: '43200',
      },
    ),
    WARDEN_SESSION_IDLE_SEC: setting(
      z.coerce
        .number()
        .int()
        .min(120)
        .max(30 * 86_400)
        .default(3_600),
      {
        description:
          'a session not used for this long ends too (1 h; 120 s to 30 days; exact to a minute); an open dashboard tab keeps its session in use, since it polls the API',
        example: '3600',
      },
    ),
    WARDEN_COOKIE_SECURE: setting(
      z.enum(['auto', 'true', 'false'], { message: 'must be auto, true or false' }).default('auto'),
      {
        description:
          '`Secure` flag of the session cookie: `auto` when the request came over https (or `X-Forwarded-Proto: https`), `true`, `false`',
        example: 'true',
      },
    ),
    WARDEN_ALLOWED_ORIGINS: setting(originList, {
      description:
        "origins accepted on POSTs besides the dashboard's own host, e.g. `https://warden.example.com` behind a reverse proxy that rewrites `Host`",
      example: 'https://warden.example.com',
      unset: 'only its own host',
    }),
    WARDEN_PAYLOAD_ACCESS: setting(
      z.enum(['operator', 'viewer', 'none'], { message: 'must be operator, viewer or none' }).default('viewer'),
      {
        description:
          'who sees record payloads (key, value, header previews) on the Quarantine and Dead letters pages and their API: `operator` (operators only), `viewer` (every signed-in user) or `none`; the API leaves them out for everyone else',
        example: 'operator',
      },
    ),
  },
});

export const dashboardConfig = defineProgramConfig({
  id: 'dashboard',
  title: 'The dashboard',
  command: 'npm run dev, npm start',
  module: 'lib/server/dashboard-config.ts',
  about:
    'The pages, the API and the proxy (app/, lib/server/). A bad value stops the server at start-up (instrumentation.ts).',
  reads: [databasePart, kafkaPart, samplingPart, analysisPart, deadLetterPart],
  own: [dashboardPart, accessPart],
});

export type DashboardConfig = ReturnType<typeof dashboardConfig.parse>;

/** The dashboard's configuration from process.env, parsed once per server process. Throws ConfigError. */
export const loadDashboardConfig = (): DashboardConfig => dashboardConfig.load();
