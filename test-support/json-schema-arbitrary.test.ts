import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arbitraryOf, hostileString, type JsonSchema } from './json-schema-arbitrary';

describe('arbitraryOf', () => {
  it('generates only values the zod schema behind the JSON Schema accepts', () => {
    const schema = z
      .object({
        digits: z.string().regex(/^\d{1,3}$/),
        choice: z.enum(['x', 'y']).nullable(),
        count: z.number().int().min(2).max(5),
        ratio: z.number().min(0).max(1),
        flags: z.array(z.boolean()).optional(),
        at: z.iso.datetime(),
        name: z.string().min(1).max(8),
      })
      .strict();
    const arbitrary = arbitraryOf(z.toJSONSchema(schema, { io: 'input' }) as JsonSchema);
    fc.assert(
      fc.property(arbitrary, (value) => {
        expect(schema.safeParse(value).error?.issues ?? []).toEqual([]);
      }),
      { seed: 22, numRuns: 300 },
    );
  });

  it('leaves optional properties out sometimes and keeps required ones always', () => {
    const arbitrary = arbitraryOf({
      type: 'object',
      properties: { need: { type: 'boolean' }, maybe: { type: 'boolean' } },
      required: ['need'],
    });
    const samples = fc.sample(arbitrary, { seed: 7, numRuns: 200 }) as Array<Record<string, unknown>>;
    expect(samples.every((s) => 'need' in s)).toBe(true);
    expect(samples.some((s) => !('maybe' in s))).toBe(true);
    expect(samples.some((s) => 'maybe' in s)).toBe(true);
  });

  it('hostile strings include the empty string, a NUL and an escape that does not decode', () => {
    const samples = new Set(fc.sample(hostileString, { seed: 1, numRuns: 2_000 }));
    for (const wanted of ['', '\u0000', '%zz']) expect(samples.has(wanted)).toBe(true);
  });
});
