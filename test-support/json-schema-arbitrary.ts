import fc from 'fast-check';

// fast-check arbitraries from the JSON Schemas of the OpenAPI document (what z.toJSONSchema emits for the
// request schemas): values of the documented shape, so the fuzz test reaches the checks behind the schema
// (refinements the schema cannot state, the database, Kafka) and not only the parser. Hand-written because
// no kept package turns JSON Schema 2020-12 into fast-check arbitraries; it covers the keywords zod emits
// (type, enum, const, pattern, format date-time, min/max lengths and values, anyOf, properties, required,
// items) and falls back to any JSON value for the rest.

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
};

const ISO_TIME = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, minLength + 40);
  const fits = (s: string) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
  if (schema.format === 'date-time') return ISO_TIME;
  if (schema.pattern !== undefined) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits);
    } catch {
      // A pattern fast-check cannot generate from (e.g. a Unicode property class): plain strings of the
      // right length; the server then answers 400 for the ones that do not match, which is checked too.
    }
  }
  // Lengths in UTF-16 code units, as zod (and JavaScript) count them; a grapheme can be several.
  return fc.string({ minLength, maxLength, unit: 'grapheme' }).filter(fits);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectArbitrary(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, arbitraryOf(s)]));
  return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

function typedArbitrary(type: string, schema: JsonSchema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? arbitraryOf(schema.items) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, (schema.minItems ?? 0) + 5),
      });
    case 'object':
      return objectArbitrary(schema);
    default:
      return fc.jsonValue();
  }
}

/** Values of the shape `schema` describes. */
export function arbitraryOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(arbitraryOf));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((t) => typedArbitrary(t, schema)));
  if (schema.type !== undefined) return typedArbitrary(schema.type, schema);
  if (schema.properties) return objectArbitrary(schema);
  return fc.jsonValue();
}

/** Strings that have broken parsers before: empty, NUL, escapes that do not decode, huge, signed, SQL, lone surrogates. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '%00',
    '%',
    '%zz',
    '%E0%A4%A',
    '.',
    '..',
    '-1',
    '1.5',
    '0x1',
    '1e3',
    '99999999999999999999999',
    '9'.repeat(400),
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '\ud800',
    'ünïcödé 💥',
    'null',
    'true',
    '[]',
    '{}',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ maxLength: 300, minLength: 256 }),
);
