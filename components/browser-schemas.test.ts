import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BROWSER_SCHEMA_LOADERS } from './browser-schemas';
import { ZAlertsResponse, ZSilence } from '@/lib/schemas/alerts';
import { ZAttention } from '@/lib/schemas/attention';
import { ZApiError } from '@/lib/schemas/common';
import { ZDeadLetterFilter } from '@/lib/schemas/dead-letters';
import { ZGroupDetail, ZLagSeries } from '@/lib/schemas/groups';

describe('browser schema loaders', () => {
  it("each name loads a zod schema, and loading one sets zod's jitless mode", async () => {
    for (const [name, load] of Object.entries(BROWSER_SCHEMA_LOADERS)) {
      expect(await load(), name).toBeInstanceOf(z.ZodType);
    }
    expect(z.config().jitless).toBe(true);
  });

  it('a name loads the schema of that name, not a neighbour from the same module', async () => {
    expect(await BROWSER_SCHEMA_LOADERS.alerts()).toBe(ZAlertsResponse);
    expect(await BROWSER_SCHEMA_LOADERS.silence()).toBe(ZSilence);
    expect(await BROWSER_SCHEMA_LOADERS.attention()).toBe(ZAttention);
    expect(await BROWSER_SCHEMA_LOADERS.apiError()).toBe(ZApiError);
    expect(await BROWSER_SCHEMA_LOADERS.deadLetterFilter()).toBe(ZDeadLetterFilter);
    expect(await BROWSER_SCHEMA_LOADERS.groupDetail()).toBe(ZGroupDetail);
    expect(await BROWSER_SCHEMA_LOADERS.lagSeries()).toBe(ZLagSeries);
  });
});
