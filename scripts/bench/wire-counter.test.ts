import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseLogDirSizes, parseSsSegments, WireCounter } from './wire-counter';

// The socket counter on a loopback echo server of its own (no broker), and the parsers on real output shapes.

const servers: net.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server that answers every chunk with `replyBytes` bytes; resolves with its port. */
async function replyingServer(replyBytes: number): Promise<number> {
  const server = net.createServer((socket) => socket.on('data', () => socket.write(Buffer.alloc(replyBytes, 1))));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** As kafkajs calls the factory without TLS: `ssl` null (its type declares options). */
function connect(counter: WireCounter, port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = counter.socketFactory({
      host: '127.0.0.1',
      port,
      ssl: null as never,
      onConnect: () => resolve(socket),
    });
  });
}

async function exchange(socket: net.Socket, bytes: number, replyBytes: number): Promise<void> {
  await new Promise<void>((resolve) => {
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received < replyBytes) return;
      socket.off('data', onData);
      resolve();
    };
    socket.on('data', onData);
    socket.write(Buffer.alloc(bytes, 2));
  });
}

describe('WireCounter', () => {
  it('counts the bytes of open and closed connections, both ways, and the requests reported', async () => {
    const port = await replyingServer(30);
    const counter = new WireCounter();
    const first = await connect(counter, port);
    const second = await connect(counter, port);
    await exchange(first, 100, 30);
    await exchange(second, 7, 30);
    counter.request('Fetch');
    counter.request('Fetch');
    counter.request('Heartbeat');
    const open = counter.snapshot();
    expect(open).toMatchObject({ bytesOut: 107, bytesIn: 60, closed: 0 });
    expect(open.requests).toEqual(
      new Map([
        ['Fetch', 2],
        ['Heartbeat', 1],
      ]),
    );
    expect(open.connections).toEqual(new Set([`${first.localPort}>${port}`, `${second.localPort}>${port}`]));

    await new Promise((resolve) => {
      first.once('close', resolve);
      first.destroy();
    });
    const afterClose = counter.snapshot();
    // The closed connection's bytes stay in the totals; it is no longer listed as open.
    expect(afterClose).toMatchObject({ bytesOut: 107, bytesIn: 60, closed: 1 });
    expect(afterClose.connections).toEqual(new Set([`${second.localPort}>${port}`]));
    // A snapshot is a copy: later requests do not change it.
    counter.request('Produce');
    expect(afterClose.requests.has('Produce')).toBe(false);
    second.destroy();
  });
});

describe('parseSsSegments', () => {
  it('sums segments in and out per connection by local and peer port', () => {
    const stdout = [
      '0      0      127.0.0.1:36806 127.0.0.1:26092 ',
      '\t bbr wscale:10,10 rto:204 bytes_sent:21 segs_out:4 segs_in:3 data_segs_out:1 data_segs_in:1',
      '0      0      [::1]:5432 [::1]:41000',
      '\t cubic segs_out:10 segs_in:12 data_segs_out:5',
      '0      0      127.0.0.1:40000 127.0.0.1:26092',
      '\t cubic rto:204 data_segs_out:5',
      '',
    ].join('\n');
    expect(parseSsSegments(stdout)).toEqual(
      new Map([
        ['36806>26092', 7],
        ['5432>41000', 22],
      ]),
    );
    expect(parseSsSegments('')).toEqual(new Map());
  });
});

describe('parseLogDirSizes', () => {
  const output = [
    'Querying brokers for log directories information',
    'Received log directory information from brokers 1',
    JSON.stringify({
      version: 1,
      brokers: [
        {
          broker: 1,
          logDirs: [
            {
              logDir: '/data',
              error: null,
              partitions: [
                { partition: 'p.state-0', size: 100, offsetLag: 0, isFuture: false },
                { partition: 'p.state-5', size: 23, offsetLag: 0, isFuture: false },
                { partition: 'p.commands-0', size: 7, offsetLag: 0, isFuture: false },
                { partition: 'other-topic-1', size: 1_000, offsetLag: 0, isFuture: false },
              ],
            },
          ],
        },
      ],
    }),
    '',
  ].join('\n');

  it("sums each asked topic's partitions and leaves out the others", () => {
    expect(parseLogDirSizes(output, ['p.state', 'p.commands', 'p.empty'])).toEqual(
      new Map([
        ['p.state', 123],
        ['p.commands', 7],
        ['p.empty', 0],
      ]),
    );
  });

  it('refuses output without the JSON line, quoting it', () => {
    expect(() => parseLogDirSizes('Error: connection refused\n', ['p.state'])).toThrow(
      /kafka-log-dirs printed no JSON:\nError: connection refused/,
    );
  });
});
