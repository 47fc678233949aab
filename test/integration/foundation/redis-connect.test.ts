import assert from 'node:assert/strict';
import net from 'node:net';
import { connectRedis } from '../../../core/redis.js';
import { freePort, sharedRedis } from '../../support/redis.js';
import { onSuiteEnd } from '../../support/teardown.js';

/** A TCP listener that takes connections and never answers: another service's port named as Redis. */
async function silentPort(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as net.AddressInfo).port;
}

describe('connecting to Redis at start', function () {
  this.timeout(30_000);

  it('gives up on an address that takes the connection and never answers, saying so, instead of waiting for ever', async () => {
    const port = await silentPort();
    await assert.rejects(connectRedis(`redis://:secret-pw@127.0.0.1:${port}`, 1_000), (err: Error) => {
      assert.equal(err.message, 'cannot reach Redis at REDIS_URL: no answer within 1 s (is Redis at that address?)');
      return true;
    });
  });

  it('names the reason of an address that refuses the connection', async () => {
    await assert.rejects(connectRedis(`redis://127.0.0.1:${await freePort()}`), /^Error: cannot reach Redis at REDIS_URL: connect ECONNREFUSED/);
  });

  it('connects to a real redis-server', async () => {
    const redis = await connectRedis((await sharedRedis()).url);
    assert.equal(await redis.ping(), 'PONG');
    redis.disconnect();
  });
});
