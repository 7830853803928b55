import { describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { loadTestConfig } from '../../test-support/test-config';
import type { Database } from '../../lib/db';
import { connectKafkaAndDatabase } from '../../test-support/kafka-and-database';
import { testKafka } from '../../test-support/integration';
import { runVerification } from './run-verification';

// A short `npm run verify` inside npm test: the checker must find nothing lost, no order violation, no
// silently dropped record and no commit past unfinished work, after a kill -9, a database outage and with a
// quarantined partition.
describe('verification scenarios (short)', () => {
  const config = loadTestConfig();
  const kafka = testKafka('warden-verify-it');
  let admin: Admin;
  let db: Database;

  connectKafkaAndDatabase(kafka, (handles) => ({ admin, db } = handles));

  it('steady, kill9, db-outage and isolation pass the checker', async () => {
    const lines: string[] = [];
    const reports = await runVerification({
      kafka,
      admin,
      db,
      databaseUrl: config.DATABASE_URL,
      brokers: config.kafkaBrokers,
      localBroker: null,
      scenarios: ['steady', 'kill9', 'db-outage', 'isolation'],
      records: 1_500,
      keys: 10,
      partitions: 4,
      transientRate: 0.1,
      ordering: 'key',
      maxLatencyMs: 2,
      poisonShare: 0.002,
      malformedShare: 0.004,
      ignoredShare: 0.02,
      firstWorkerPort: config.WORKER_PORT + 20,
      log: (line) => lines.push(line),
    });
    for (const report of reports) {
      expect(report.notes, `${report.scenario}: ${report.notes.join(' | ')}`).toEqual([]);
      expect(report.verdict.lost).toEqual([]);
      expect(report.verdict.orderViolations).toBe(0);
      expect(report.verdict.silentlyDropped).toEqual([]);
      expect(report.verdict.commitViolations).toEqual([]);
      expect(report.passed).toBe(true);
    }
    const steady = reports.find((r) => r.scenario === 'steady')!;
    expect(steady.verdict.badRecords).toBeGreaterThan(0);
    expect(steady.verdict.deadLettered).toBe(steady.verdict.badRecords);
    expect(reports.find((r) => r.scenario === 'isolation')!.verdict.quarantined).toBe(1);
  }, 600_000);
});
