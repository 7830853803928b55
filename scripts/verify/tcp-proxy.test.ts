import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpProxy } from './tcp-proxy';

// Real loopback sockets (no broker): an echo server behind the proxy.
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function echoBehindProxy(): Promise<{ proxy: TcpProxy; port: number }> {
  const echo = net.createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const proxy = new TcpProxy({ host: '127.0.0.1', port: (echo.address() as net.AddressInfo).port });
  const port = await proxy.start();
  cleanups.push(() => new Promise((resolve) => echo.close(() => resolve())));
  cleanups.push(() => proxy.stop());
  return { proxy, port };
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    cleanups.push(async () => void socket.destroy());
  });
}

/** The next bytes the socket receives, or 'closed' / 'nothing' when it closes or stays silent for `ms`. */
function nextReply(socket: net.Socket, ms: number): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('nothing'), ms);
    socket.once('data', (data) => (clearTimeout(timer), resolve(data.toString())));
    socket.once('close', () => (clearTimeout(timer), resolve('closed')));
  });
}

describe('TcpProxy', () => {
  it('forwards both ways, late by the latency it is given', async () => {
    const { proxy, port } = await echoBehindProxy();
    const socket = await connect(port);
    socket.write('fast');
    expect(await nextReply(socket, 2_000)).toBe('fast');
    proxy.setLatency(150);
    const sent = Date.now();
    socket.write('slow');
    expect(await nextReply(socket, 5_000)).toBe('slow');
    // Once there and once back. Node measures a timer from the event loop's cached time, which can be up to
    // 1 ms before the call, so each 150 ms hop can read as 149 ms on Date.now (a fresh CI run saw 299).
    expect(Date.now() - sent).toBeGreaterThanOrEqual(300 - 2);
  });

  it('keeps connections open but passes nothing while stalled, then cuts the connections that lost bytes', async () => {
    const { proxy, port } = await echoBehindProxy();
    const socket = await connect(port);
    proxy.setStalled(true);
    socket.write('into the void');
    expect(await nextReply(socket, 500)).toBe('nothing');
    const closed = nextReply(socket, 2_000);
    proxy.setStalled(false);
    expect(await closed).toBe('closed');
    const fresh = await connect(port);
    fresh.write('healthy');
    expect(await nextReply(fresh, 2_000)).toBe('healthy');
  });

  it('cuts open connections and refuses new ones while down', async () => {
    const { proxy, port } = await echoBehindProxy();
    const socket = await connect(port);
    const closed = nextReply(socket, 2_000);
    proxy.setDown(true);
    expect(await closed).toBe('closed');
    const refused = await connect(port);
    expect(await nextReply(refused, 2_000)).toBe('closed');
  });
});
