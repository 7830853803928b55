import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Context,
  type SpanContext,
} from '@opentelemetry/api';

// W3C Trace Context across the asynchronous Kafka hop: the producer's `traceparent` header is the
// parent of Warden's processing span, and the records Warden produces for that input (result, dead letter)
// carry Warden's span as their parent, so a trace runs producer -> Warden -> result consumer.
//
// Without an OpenTelemetry SDK registered in the process, the API's tracer records nothing and its span keeps
// the parent's context: the header is forwarded unchanged, which links the result straight to the producer
// instead of to a span no backend ever received. With an SDK (e.g. started with
// `node --import @opentelemetry/auto-instrumentations-node/register`), the span is exported and the header
// names it. A malformed header is dropped, never forwarded (spec: restart the trace rather than corrupt it).

export const TRACEPARENT = 'traceparent';
export const TRACESTATE = 'tracestate';

const TRACEPARENT_PATTERN = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The span context a `traceparent` header names, or null when it is absent or malformed. */
export function parseTraceparent(header: string | Buffer | undefined): SpanContext | null {
  if (header === undefined) return null;
  const value = header.toString().trim();
  const match = TRACEPARENT_PATTERN.exec(value);
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff') return null;
  // Version 00 has exactly four fields; later versions may append more, which a 00 parser ignores.
  if (version === '00' && rest !== undefined) return null;
  if (/^0+$/.test(traceId!) || /^0+$/.test(spanId!)) return null;
  return { traceId: traceId!, spanId: spanId!, traceFlags: parseInt(flags!, 16) & TraceFlags.SAMPLED, isRemote: true };
}

export function formatTraceparent(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0')}`;
}

export type RecordHeaders = Record<string, Buffer | string | undefined>;

/**
 * Runs `work` inside a CONSUMER span whose parent is the record's `traceparent`, passing it the trace
 * headers its output records must carry (empty when the record had no valid trace context). The span ends
 * when `work` settles; a failure marks it as an error and rethrows unchanged.
 */
export async function withRecordSpan<T>(
  name: string,
  headers: RecordHeaders,
  attributes: Record<string, string | number>,
  work: (traceHeaders: Record<string, string>) => Promise<T>,
): Promise<T> {
  const parent = parseTraceparent(headers[TRACEPARENT]);
  if (parent === null) return work({});
  const parentContext: Context = trace.setSpanContext(ROOT_CONTEXT, parent);
  const span = trace.getTracer('warden').startSpan(name, { kind: SpanKind.CONSUMER, attributes }, parentContext);
  const state = headers[TRACESTATE]?.toString();
  const traceHeaders: Record<string, string> = { [TRACEPARENT]: formatTraceparent(span.spanContext()) };
  if (state !== undefined && state.length > 0) traceHeaders[TRACESTATE] = state;
  try {
    return await work(traceHeaders);
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
