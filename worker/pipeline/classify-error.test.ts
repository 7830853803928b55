import { describe, expect, it } from 'vitest';
import { classifyPipelineError } from './classify-error';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name }, extra);

describe('classifyPipelineError', () => {
  it.each([
    ['database unreachable (Prisma P1001)', named('PrismaClientKnownRequestError', { code: 'P1001' })],
    [
      'adapter says the database is not reachable',
      named('PrismaClientKnownRequestError', {
        code: 'P2010',
        meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } },
      }),
    ],
    ['postgres admin shutdown (57P01)', named('DriverAdapterError', { cause: { kind: 'postgres', code: '57P01' } })],
    ['serialization failure (40001)', named('DriverAdapterError', { cause: { kind: 'postgres', code: '40001' } })],
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['kafkajs connection error', named('KafkaJSConnectionError')],
    ['kafkajs retriable protocol error', named('KafkaJSProtocolError', { retriable: true })],
    ['initialization error', named('PrismaClientInitializationError')],
    ['node-postgres DatabaseError: admin shutdown (57P01)', named('error', { code: '57P01', severity: 'FATAL' })],
    ['node-postgres DatabaseError: deadlock (40P01)', named('error', { code: '40P01', severity: 'ERROR' })],
    ['node-postgres DatabaseError: lock not available (55P03)', named('error', { code: '55P03', severity: 'ERROR' })],
    ['node-postgres connection loss (plain Error)', new Error('Connection terminated unexpectedly')],
    ['node-postgres connect timeout', new Error('timeout exceeded when trying to connect')],
    [
      'wrapped transient cause',
      new Error('store failed', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }),
    ],
  ])('%s is transient', (_name, error) => {
    expect(classifyPipelineError(error)).toBe('transient');
  });

  it.each([
    [
      'unsupported unicode in jsonb (22P05)',
      named('DriverAdapterError', { cause: { kind: 'postgres', code: '22P05' } }),
    ],
    ['node-postgres DatabaseError: jsonb refuses NUL (22P05)', named('error', { code: '22P05', severity: 'ERROR' })],
    ['node-postgres DatabaseError: check violation (23514)', named('error', { code: '23514', severity: 'ERROR' })],
    ['unique violation', named('DriverAdapterError', { cause: { kind: 'UniqueConstraintViolation' } })],
    ['kafkajs non-retriable (message too large)', named('KafkaJSProtocolError', { retriable: false })],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['a message merely mentioning connections', new Error('invalid connection string in payload')],
    ['a thrown string', 'boom'],
  ])('%s is permanent', (_name, error) => {
    expect(classifyPipelineError(error)).toBe('permanent');
  });
});
