import type { Producer } from 'kafkajs';
import type { SqlPort } from '../../../worker/pipeline/document-pipeline';

// Where (9)'s and (9r)'s time goes, measured in the workload child around the same two ports the pipeline
// uses: every upsert statement and every produce request (`send`) is counted and timed, the
// batches handed to the handler are counted by size, and the process's CPU time over the measurement window
// is read from `process.cpuUsage()` (CPU per record stays comparable between runs on a loaded machine, when
// wall-clock rates are not). The wrappers add one closure and two clock reads per statement or request.

/** Upper bounds of the batch-size histogram's buckets (the last bucket is everything above). */
export const BATCH_SIZE_BUCKETS = [1, 9, 49, 99, 199, 499, 999] as const;

export class PipelineProbe {
  private readonly batchCounts = new Array<number>(BATCH_SIZE_BUCKETS.length + 1).fill(0);
  private batches = 0;
  private batchedRecords = 0;
  private statements = 0;
  private statementMs = 0;
  private requests = 0;
  private requestMessages = 0;
  private requestMs = 0;
  private cpuAtStart: NodeJS.CpuUsage | null = null;

  /** `sql` whose statements are counted and timed. */
  sql(sql: SqlPort): SqlPort {
    return { query: (text, values) => this.timed(sql.query(text, values), 'statement') };
  }

  /** `producer` whose `send` requests are counted and timed, with the messages they carry. */
  producer(producer: Producer): Producer {
    const wrapped = Object.create(producer) as Producer;
    const send: Producer['send'] = (record) => {
      this.requestMessages += record.messages.length;
      return this.timed(producer.send(record), 'request');
    };
    Object.defineProperty(wrapped, 'send', { value: send });
    return wrapped;
  }

  /** One batch handed to the handler (Warden) or to `eachBatch` (raw). */
  batch(size: number): void {
    this.batches++;
    this.batchedRecords += size;
    const bucket = BATCH_SIZE_BUCKETS.findIndex((bound) => size <= bound);
    this.batchCounts[bucket === -1 ? BATCH_SIZE_BUCKETS.length : bucket]!++;
  }

  /** The measurement window starts: CPU time is counted from here. */
  start(): void {
    this.cpuAtStart = process.cpuUsage();
  }

  /** The details the workload reports; `records` the window's records (CPU per 1,000 of them). */
  details(records: number): Record<string, number | string> {
    const cpu = process.cpuUsage(this.cpuAtStart ?? undefined);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return {
      batches: this.batches,
      meanBatchSize: this.batches === 0 ? 0 : round(this.batchedRecords / this.batches),
      batchSizes: formatHistogram(this.batchCounts),
      statements: this.statements,
      meanStatementMs: this.statements === 0 ? 0 : round(this.statementMs / this.statements),
      produceRequests: this.requests,
      meanMessagesPerRequest: this.requests === 0 ? 0 : round(this.requestMessages / this.requests),
      meanProduceMs: this.requests === 0 ? 0 : round(this.requestMs / this.requests),
      cpuMs: Math.round(cpuMs),
      cpuMsPer1000Records: records === 0 ? 0 : round((cpuMs * 1000) / records),
    };
  }

  private timed<R>(running: Promise<R>, kind: 'statement' | 'request'): Promise<R> {
    const startedAt = performance.now();
    const done = () => {
      const ms = performance.now() - startedAt;
      if (kind === 'statement') {
        this.statements++;
        this.statementMs += ms;
      } else {
        this.requests++;
        this.requestMs += ms;
      }
    };
    return running.finally(done);
  }
}

/** "≤1: 3, 2–9: 0, …, >999: 0", only the non-empty buckets. */
export function formatHistogram(counts: readonly number[]): string {
  const parts: string[] = [];
  counts.forEach((count, index) => {
    if (count === 0) return;
    const upper = BATCH_SIZE_BUCKETS[index];
    const lower = index === 0 ? 1 : BATCH_SIZE_BUCKETS[index - 1]! + 1;
    const label = upper === undefined ? `>${lower - 1}` : lower === upper ? `${upper}` : `${lower}–${upper}`;
    parts.push(`${label}: ${count}`);
  });
  return parts.length === 0 ? 'none' : parts.join(', ');
}

const round = (value: number) => Math.round(value * 10) / 10;
