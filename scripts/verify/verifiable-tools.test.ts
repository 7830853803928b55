import { describe, expect, it } from 'vitest';
import { parseToolLine, tallyVerifiableTools } from './verifiable-tools';

const success = (partition: number, offset: number) => ({ name: 'producer_send_success', partition, offset });
const read = (partition: number, offset: number) => ({ name: 'record_data', partition, offset });

describe('tallyVerifiableTools', () => {
  it('counts an acknowledged record the consumer never read as lost, and repeated reads as duplicates', () => {
    const tally = tallyVerifiableTools(
      [success(0, 0), success(0, 1), success(1, 0), { name: 'producer_send_error', exception: 'NotEnoughReplicas' }],
      [read(0, 0), read(1, 0), read(1, 0), { name: 'records_consumed' }],
    );
    expect(tally).toEqual({ attempted: 4, acked: 3, sendErrors: 1, consumed: 2, lost: ['0/1'], duplicates: 1 });
  });

  it('finds nothing lost when every acknowledged record was read', () => {
    const tally = tallyVerifiableTools([success(2, 7)], [read(2, 7)]);
    expect(tally.lost).toEqual([]);
    expect(tally.consumed).toBe(1);
  });
});

describe('parseToolLine', () => {
  it('reads JSON event lines and ignores anything else the JVM prints', () => {
    expect(parseToolLine('{"name":"record_data","partition":1,"offset":5}')).toEqual({
      name: 'record_data',
      partition: 1,
      offset: 5,
    });
    expect(parseToolLine('[2026-12-01 14:00:00] WARN something')).toBeNull();
    expect(parseToolLine('{"truncated":')).toBeNull();
  });
});
