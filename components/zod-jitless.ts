import { z } from 'zod';

// zod decides whether it may compile parsers with `new Function` when each object schema is built, probing once;
// under the Content-Security-Policy (no 'unsafe-eval') the probe is blocked and reported as a violation.
// Parsing without compilation is as correct, and fast enough for API answers, so the browser never probes.
// browser-schemas.ts loads this module before any schema module, so it runs before any schema is built.
z.config({ jitless: true });
