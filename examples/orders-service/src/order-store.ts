import { defaultClassifyError, type ErrorClass, type SourceRecord } from '@warden/consumer';
import type { Pool } from 'pg';
import type { Order } from './orders';

// The service's own table. An order is stored under its id: a redelivered record (after a restart, a
// rebalance or a retry) finds its row and changes nothing, so every order is stored once however often it
// arrives. One customer's orders arrive in offset order (ordering 'key' by customer), so a later version of an
// order never meets an earlier one afterwards.

export const ORDER_TABLE = 'orders_service_order';

export class OrderStore {
  constructor(private readonly pool: Pool) {}

  /** Creates the table when it is missing; instances starting together serialize on an advisory lock. */
  async ensureTable(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [ORDER_TABLE]);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${ORDER_TABLE} (
          order_id         text PRIMARY KEY,
          customer_id      text NOT NULL,
          amount_cents     bigint NOT NULL CHECK (amount_cents >= 0),
          currency         char(3) NOT NULL,
          source_topic     text NOT NULL,
          source_partition integer NOT NULL,
          source_offset    bigint NOT NULL,
          stored_at        timestamptz NOT NULL DEFAULT now(),
          updated_at       timestamptz NOT NULL DEFAULT now()
        )`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Inserts the order, or updates its row only when the order itself changed (a redelivery changes nothing). */
  async upsert(order: Order, record: SourceRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${ORDER_TABLE}
         (order_id, customer_id, amount_cents, currency, source_topic, source_partition, source_offset)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (order_id) DO UPDATE SET
         customer_id = EXCLUDED.customer_id,
         amount_cents = EXCLUDED.amount_cents,
         currency = EXCLUDED.currency,
         source_topic = EXCLUDED.source_topic,
         source_partition = EXCLUDED.source_partition,
         source_offset = EXCLUDED.source_offset,
         updated_at = now()
       WHERE (${ORDER_TABLE}.customer_id, ${ORDER_TABLE}.amount_cents, ${ORDER_TABLE}.currency)
         IS DISTINCT FROM (EXCLUDED.customer_id, EXCLUDED.amount_cents, EXCLUDED.currency)`,
      [
        order.orderId,
        order.customerId,
        order.amountCents,
        order.currency,
        record.topic,
        record.partition,
        record.offset,
      ],
    );
  }
}

/** SQLSTATE classes that heal by themselves: connection (08), rollback (40), resources (53), operator (57). */
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57']);
/** node-postgres reports a lost connection as a plain Error with one of these messages. */
const TRANSIENT_PG_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client was closed|Query read timeout)/;

/**
 * Transient (retried in place, the partition waits) when Postgres or Kafka is unreachable or busy; permanent
 * when Postgres refuses this very order. Anything else goes to the package's default, which retries
 * connection, timeout and leadership problems and calls the rest permanent.
 */
export function classifyOrderError(error: unknown): ErrorClass {
  const fields = typeof error === 'object' && error !== null ? (error as { code?: unknown; message?: unknown }) : {};
  if (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code))
    return TRANSIENT_SQLSTATE_CLASSES.has(fields.code.slice(0, 2)) || fields.code === '55P03'
      ? 'transient'
      : 'permanent';
  if (typeof fields.message === 'string' && TRANSIENT_PG_MESSAGE.test(fields.message)) return 'transient';
  return defaultClassifyError(error);
}
