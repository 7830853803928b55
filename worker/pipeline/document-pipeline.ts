import type { Producer } from 'kafkajs';
import type { BatchItem, BatchOutcomes, SourceRecord } from '@warden/consumer';
import { BatchingPublisher, type PublishSink } from './batching-publisher';
import { admitEvent, type AdmittedEvent } from './events';
import { classifyPipelineError } from './classify-error';
import { TRACEPARENT, withRecordSpan } from './trace-context';

// The default pipeline: upsert a document keyed by business id (idempotent, so redelivery is harmless),
// then publish a `stored` result; a record the store rejects for good publishes a `failed` result with
// the same key. A record completes only when its result is acknowledged by the broker (acks=all). Results
// waiting while a produce request is in flight share the next one (batching-publisher.ts).
//
// `handleBatch` (the worker's default) stores a whole batch with one multi-row upsert, then publishes the
// batch's results together (one produce request); it answers with the batch's outcomes at once (one promise
// for the batch, not one per record), each record's outcome its own: its result acknowledged, or its failure.
// A statement the store refuses is retried row by row, so a poison record fails alone and its neighbours are
// stored; a transient error (database down) fails each record of the batch, each retried on its own.

export interface ResultEvent {
  eventId: string;
  businessId: string;
  status: 'stored' | 'failed';
  error?: { errorClass: string; message: string };
  source: { topic: string; partition: number; offset: string };
}

export interface DocumentPipelineOptions {
  /** Where documents are written: node-postgres's pool under the worker's Prisma client (`nodePostgresPool`). */
  sql: SqlPort;
  /** An idempotent producer; sends here use acks=all. */
  producer: Producer;
  resultsTopic: string;
  /** Test hook: runs before each store write; throw from it to inject faults. */
  beforeStore?: (admitted: AdmittedEvent, record: SourceRecord) => Promise<void> | void;
}

export function createDocumentPipeline(options: DocumentPipelineOptions) {
  const { sql, producer, resultsTopic } = options;
  const results = new BatchingPublisher((request) => producer.send(request), resultsTopic);

  function publish(resultKey: string, result: ResultEvent, traceHeaders: Record<string, string>): Promise<void> {
    return results.publish({ key: resultKey, value: JSON.stringify(result), headers: traceHeaders });
  }

  const spanAttributes = (record: SourceRecord) => ({
    'messaging.system': 'kafka',
    'messaging.destination.name': record.topic,
    'messaging.destination.partition.id': String(record.partition),
    'messaging.kafka.offset': Number(record.offset),
  });

  return {
    admit: admitEvent,
    classifyError: classifyPipelineError,

    handle({ event, resultKey }: AdmittedEvent, record: SourceRecord): Promise<void> {
      if (resultKey === null) return Promise.resolve();
      return withRecordSpan('warden process', record.headers, spanAttributes(record), async (traceHeaders) => {
        await options.beforeStore?.({ event, resultKey }, record);
        await upsertDocuments(sql, [{ event, record }]);
        await publish(resultKey, storedResult(event, record), traceHeaders);
      });
    },

    handleBatch(items: readonly BatchItem<AdmittedEvent>[]): Promise<BatchOutcomes> {
      const stored = storeBatch(sql, items, options.beforeStore);
      return new Promise<BatchOutcomes>((resolve) => {
        // The batch's outcomes, settled together: null for a record without a result key or whose result was
        // acknowledged, else its failure. `waiting` holds the store and every result not yet acknowledged.
        const outcomes = new Array<unknown>(items.length).fill(null);
        let waiting = 1;
        const settled = (index: number, outcome: unknown) => {
          if (index >= 0) outcomes[index] = outcome;
          if (--waiting === 0) resolve(outcomes);
        };
        const failedWith = (index: number, error: unknown) => settled(index, asFailure(error));
        const sink: PublishSink = { acknowledged: (index) => settled(index, null), failed: failedWith };
        // A traced record (a traceparent header) keeps its own span around its store and publish.
        items.forEach(({ value, record }, index) => {
          const { event, resultKey } = value;
          if (resultKey === null || record.headers[TRACEPARENT] === undefined) return;
          waiting++;
          withRecordSpan('warden process', record.headers, spanAttributes(record), (traceHeaders) =>
            stored.then((storeOutcomes) => {
              const outcome = storeOutcomes[index];
              if (outcome !== STORED) throw outcome;
              return publish(resultKey, storedResult(event, record), traceHeaders);
            }),
          ).then(
            () => settled(index, null),
            (error: unknown) => failedWith(index, error),
          );
        });
        stored.then(
          (storeOutcomes) => {
            items.forEach(({ value, record }, index) => {
              if (value.resultKey === null || record.headers[TRACEPARENT] !== undefined) return;
              const outcome = storeOutcomes[index];
              if (outcome !== STORED) {
                outcomes[index] = asFailure(outcome);
                return;
              }
              waiting++;
              const message = { key: value.resultKey, value: JSON.stringify(storedResult(value.event, record)) };
              results.enqueue(message, sink, index);
            });
            settled(-1, null);
          },
          (error: unknown) => {
            items.forEach(({ value, record }, index) => {
              if (value.resultKey !== null && record.headers[TRACEPARENT] === undefined)
                outcomes[index] = asFailure(error);
            });
            settled(-1, null);
          },
        );
      });
    },

    onPermanentFailure({ event, resultKey }: AdmittedEvent, record: SourceRecord, error: unknown): Promise<void> {
      if (resultKey === null) return Promise.resolve();
      const failure = error instanceof Error ? error : new Error(String(error));
      const result: ResultEvent = {
        eventId: event.eventId,
        businessId: event.businessId,
        status: 'failed',
        error: { errorClass: failure.name, message: failure.message.slice(0, 500) },
        source: sourceOf(record),
      };
      return withRecordSpan('warden publish failure', record.headers, spanAttributes(record), (traceHeaders) =>
        publish(resultKey, result, traceHeaders),
      );
    },
  };
}

/** A record's failure as a BatchOutcomes entry, where `null` means complete: a null or undefined reason still fails. */
function asFailure(error: unknown): unknown {
  return error ?? new Error('the record failed without an error value');
}

/** Where a result's record came from. */
function sourceOf(record: SourceRecord): ResultEvent['source'] {
  return { topic: record.topic, partition: record.partition, offset: record.offset };
}

/** The `stored` result of a record whose document was written (or was already there). */
export function storedResult(event: AdmittedEvent['event'], record: SourceRecord): ResultEvent {
  return { eventId: event.eventId, businessId: event.businessId, status: 'stored', source: sourceOf(record) };
}

/** A record's store outcome when its row was written (or was a no-op); anything else is its failure. */
const STORED = Symbol('stored');

interface DocumentWrite {
  event: AdmittedEvent['event'];
  record: SourceRecord;
}

/**
 * Runs each stored item's `beforeStore` hook, then stores every item whose hook passed with one statement, in
 * batch order. Keeps lane order: an item whose lane predecessor in the batch (`previous`) was not stored is
 * not stored either (the core runs it again after that one). Resolves once every record's outcome is known:
 * one entry per item, by index, `STORED` or the record's failure (its hook's, the statement's, or, when the
 * statement was refused and held more than one row, its own row's: the rows are then stored one by one, in
 * order); items without a result key have none. One promise for the whole batch, so the records' results are
 * published in one turn and share one produce request.
 */
function storeBatch(
  sql: SqlPort,
  items: readonly BatchItem<AdmittedEvent>[],
  beforeStore: DocumentPipelineOptions['beforeStore'],
): Promise<unknown[]> {
  // Without a hook every record is ready at once: no promise per record.
  const hooked =
    beforeStore === undefined
      ? Promise.resolve(null)
      : Promise.allSettled(
          items.map(({ value, record }) =>
            value.resultKey === null ? Promise.resolve() : Promise.resolve().then(() => beforeStore(value, record)),
          ),
        );
  return hooked.then(async (hooks) => {
    const outcomes = new Array<unknown>(items.length);
    const notStored = new Uint8Array(items.length);
    const failed = (index: number, outcome: unknown) => {
      outcomes[index] = outcome;
      notStored[index] = 1;
    };
    const behindFailure = (index: number) => {
      const previous = items[index]!.previous;
      return previous !== null && notStored[previous] === 1;
    };
    const ready: DocumentWrite[] = [];
    const readyIndex: number[] = [];
    items.forEach(({ value, record }, index) => {
      const hook = hooks === null ? null : hooks[index]!;
      if (behindFailure(index)) failed(index, new Error('the record before it in its lane was not stored'));
      else if (hook !== null && hook.status === 'rejected') failed(index, hook.reason);
      else if (value.resultKey !== null) {
        ready.push({ event: value.event, record });
        readyIndex.push(index);
      }
    });
    const rows = collapseByBusinessId(ready);
    const settle = (row: DocumentRow, outcome: unknown) => {
      for (const position of row.positions) {
        const index = readyIndex[position]!;
        if (outcome === STORED) outcomes[index] = STORED;
        else failed(index, outcome);
      }
    };
    try {
      await upsertRows(sql, rows);
      for (const row of rows) settle(row, STORED);
    } catch (error) {
      // A transient error (the database is away) would fail every row alone too: each record retries instead.
      if (rows.length <= 1 || classifyPipelineError(error) === 'transient') {
        for (const row of rows) settle(row, error);
        return outcomes;
      }
      // One refused row fails the whole statement: find it by storing each row alone, in order (the
      // records of one business id share their row's outcome).
      for (const row of rows) {
        if (row.positions.some((position) => behindFailure(readyIndex[position]!))) {
          settle(row, new Error('the record before it in its lane was not stored'));
          continue;
        }
        try {
          await upsertRows(sql, [row]);
          settle(row, STORED);
        } catch (rowError) {
          settle(row, rowError);
        }
      }
    }
    return outcomes;
  });
}

/**
 * Inserts or updates documents by business id in one statement (`unnest` of one array per column, rows in
 * the given order, so first_store_seq follows it). Idempotent: a row whose stored document already came from
 * the same record, or from a later record of the same partition, changes nothing (a redelivered or older
 * record is a no-op). Records of one business id in one call collapse to one row: the later offset of their
 * partition wins (different partitions: the later in the call), and that row counts them all.
 *
 * `write_count` is the number of source records whose write the document took: an insert counts its
 * collapsed records, an update adds its collapsed records; a no-op adds nothing. So write_count - 1 counts
 * later records of the same business id, never redeliveries.
 *
 * Plain SQL on node-postgres rather than the model's upsert or `$executeRaw`: Prisma's query compiler cost
 * about 2-3 ms of CPU per upsert, which capped the whole pipeline near 300 records/s here, and `$executeRaw`
 * still passed every array through Prisma's engine before node-postgres serialized it again (about a sixth
 * of the batch pipeline's CPU at batches of 200). Postgres errors (a payload jsonb refuses, say) surface as
 * node-postgres's DatabaseError with the SQLSTATE in `code` (classify-error.ts).
 */
export function upsertDocuments(sql: SqlPort, writes: readonly DocumentWrite[]): Promise<void> {
  return upsertRows(sql, collapseByBusinessId(writes));
}

/** A SQL connection or pool taking positional parameters: node-postgres's `Pool` and `Client` are ones. */
export interface SqlPort {
  query(text: string, values: unknown[]): Promise<unknown>;
}

interface DocumentRow {
  write: DocumentWrite;
  /** Positions in the collapsed writes of the source records folded into this row; they share its outcome. */
  positions: number[];
  /** Distinct source records among them (a record given twice counts once): what write_count adds. */
  writes: number;
}

const UPSERT_DOCUMENTS = `
  INSERT INTO stored_document
    (business_id, event_type, payload, source_topic, source_partition, source_offset, write_count)
  SELECT row.business_id, row.event_type, row.payload::jsonb, row.source_topic, row.source_partition,
    row.source_offset, row.writes
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::bigint[], $7::int[]) WITH ORDINALITY
    AS row(business_id, event_type, payload, source_topic, source_partition, source_offset, writes, ordinal)
  ORDER BY row.ordinal
  ON CONFLICT (business_id) DO UPDATE SET
    event_type = EXCLUDED.event_type,
    payload = EXCLUDED.payload,
    source_topic = EXCLUDED.source_topic,
    source_partition = EXCLUDED.source_partition,
    source_offset = EXCLUDED.source_offset,
    write_count = stored_document.write_count + EXCLUDED.write_count,
    last_stored_at = now()
  WHERE stored_document.source_topic <> EXCLUDED.source_topic
    OR stored_document.source_partition <> EXCLUDED.source_partition
    OR stored_document.source_offset < EXCLUDED.source_offset`;

async function upsertRows(sql: SqlPort, rows: readonly DocumentRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql.query(UPSERT_DOCUMENTS, [
    rows.map((row) => row.write.event.businessId),
    rows.map((row) => row.write.event.type),
    rows.map((row) => JSON.stringify(row.write.event.payload)),
    rows.map((row) => row.write.record.topic),
    rows.map((row) => row.write.record.partition),
    rows.map((row) => row.write.record.offset),
    rows.map((row) => row.writes),
  ]);
}

/** One row per business id, at the position of its first write, carrying the winning write and the count. */
function collapseByBusinessId(writes: readonly DocumentWrite[]): DocumentRow[] {
  const rows = new Map<string, DocumentRow>();
  writes.forEach((write, position) => {
    const row = rows.get(write.event.businessId);
    if (row === undefined) {
      rows.set(write.event.businessId, { write, positions: [position], writes: 1 });
      return;
    }
    const held = row.write.record;
    const samePartition = held.topic === write.record.topic && held.partition === write.record.partition;
    row.positions.push(position);
    if (samePartition && held.offset === write.record.offset) return; // the same record twice
    row.writes++;
    if (!samePartition || offsetAbove(write.record.offset, held.offset)) row.write = write;
  });
  return [...rows.values()];
}

/** `a > b` for Kafka offsets as canonical decimal strings (no sign, no leading zeros), without BigInt. */
function offsetAbove(a: string, b: string): boolean {
  return a.length === b.length ? a > b : a.length > b.length;
}
