import { afterEach, describe, expect, it } from 'vitest';
import { trace, type Context, type Span, type SpanContext, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { formatTraceparent, parseTraceparent, withRecordSpan } from './trace-context';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('parseTraceparent', () => {
  it('reads a valid version-00 header, from a string or a Buffer', () => {
    const parsed = parseTraceparent(Buffer.from(PARENT));
    expect(parsed).toMatchObject({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
    expect(formatTraceparent(parsed!)).toBe(PARENT);
  });

  it.each([
    ['absent', undefined],
    ['garbage', 'hello'],
    ['upper-case hex', PARENT.toUpperCase()],
    ['version ff', PARENT.replace(/^00/, 'ff')],
    ['all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['version 00 with extra fields', `${PARENT}-extra`],
  ])('rejects %s', (_label, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });

  it('accepts a future version with extra fields, read as version 00', () => {
    expect(parseTraceparent(`01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03-future`)).toMatchObject({
      traceFlags: 1,
    });
  });
});

describe('withRecordSpan', () => {
  afterEach(() => trace.disable());

  it('without an SDK, forwards a valid traceparent and tracestate unchanged', async () => {
    const headers = await withRecordSpan('p', { traceparent: PARENT, tracestate: 'vendor=1' }, {}, async (h) => h);
    expect(headers).toEqual({ traceparent: PARENT, tracestate: 'vendor=1' });
  });

  it('gives no trace headers for a record without a valid traceparent', async () => {
    expect(await withRecordSpan('p', {}, {}, async (h) => h)).toEqual({});
    expect(await withRecordSpan('p', { traceparent: 'nope' }, {}, async (h) => h)).toEqual({});
  });

  it('with an SDK, names its own span as the parent: same trace, new span id; failures end the span as errors', async () => {
    const started: Array<{ name: string; parent: SpanContext | undefined; ended: boolean; status?: number }> = [];
    const provider: TracerProvider = {
      getTracer: (): Tracer =>
        ({
          startSpan(name: string, _options: unknown, context?: Context) {
            const parent = context ? trace.getSpanContext(context) : undefined;
            const entry: (typeof started)[number] = { name, parent, ended: false };
            started.push(entry);
            const own: SpanContext = {
              traceId: parent!.traceId,
              spanId: 'aaaaaaaaaaaaaaaa',
              traceFlags: parent!.traceFlags,
            };
            return {
              spanContext: () => own,
              end: () => void (entry.ended = true),
              setStatus: (status: { code: number }) => void (entry.status = status.code),
              recordException: () => undefined,
            } as unknown as Span;
          },
        }) as unknown as Tracer,
    };
    trace.setGlobalTracerProvider(provider);
    const headers = await withRecordSpan('warden process', { traceparent: PARENT }, {}, async (h) => h);
    expect(headers.traceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-aaaaaaaaaaaaaaaa-01');
    expect(started[0]).toMatchObject({ name: 'warden process', parent: { spanId: '00f067aa0ba902b7' }, ended: true });

    const failure = new Error('store down');
    await expect(
      withRecordSpan('warden process', { traceparent: PARENT }, {}, () => Promise.reject(failure)),
    ).rejects.toBe(failure);
    expect(started[1]).toMatchObject({ ended: true, status: 2 });
  });
});
