import { describe, expect, it } from 'vitest';
import { isDataError } from './storage-errors';

const named = (name: string, fields: Record<string, unknown>) => Object.assign(new Error(name), { name, ...fields });

describe('isDataError', () => {
  it.each([
    ['a value out of range (Prisma P2020)', named('PrismaClientKnownRequestError', { code: 'P2020' })],
    [
      'a raw statement Postgres refused as data (P2010, SQLSTATE 22P02)',
      named('PrismaClientKnownRequestError', { code: 'P2010', meta: { code: '22P02' } }),
    ],
    [
      "the adapter's value-out-of-range",
      named('PrismaClientKnownRequestError', {
        code: 'P2000',
        meta: { driverAdapterError: { cause: { kind: 'ValueOutOfRange' } } },
      }),
    ],
    [
      "the adapter's Postgres data exception",
      named('DriverAdapterError', { cause: { kind: 'postgres', code: '22021', severity: 'ERROR' } }),
    ],
    ['a node-postgres check violation', named('error', { code: '23514', severity: 'ERROR' })],
    ['a query Prisma itself refuses', named('PrismaClientValidationError', {})],
  ])('is the data: %s', (_, error) => {
    expect(isDataError(error)).toBe(true);
  });

  it.each([
    ['the database down (P1001)', named('PrismaClientKnownRequestError', { code: 'P1001' })],
    ['a connection reset', named('Error', { code: 'ECONNRESET' })],
    ['a deadlock', named('error', { code: '40P01', severity: 'ERROR' })],
    [
      'a unique violation (two writers at once: a retry resolves it)',
      named('DriverAdapterError', { cause: { kind: 'UniqueConstraintViolation', originalCode: '23505' } }),
    ],
    ['a plain error', new Error('Connection terminated unexpectedly')],
    ['not an error at all', 'boom'],
  ])('is not the data: %s', (_, error) => {
    expect(isDataError(error)).toBe(false);
  });
});
