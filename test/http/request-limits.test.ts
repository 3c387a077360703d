import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { until } from '../helpers/wait.js';

/**
 * a client that announces a large body and holds back its last bytes is cut at
 * REQUEST_TIMEOUT (its buffered body freed), and one user cannot keep more than
 * MAX_REQUESTS_IN_FLIGHT requests open at once.
 */

interface HeldRequest {
  socket: Socket;
  /** Everything the server sent back, once the socket has closed. */
  answer: Promise<string>;
}

/** Sends the headers of a POST with a large Content-Length and a first part of the body, then waits. */
function holdBody(baseUrl: string, token: string, sentBytes: number, announcedBytes: number): Promise<HeldRequest> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${LOCATIONS} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${announcedBytes}\r\n\r\n`,
      );
      socket.write(`[${' '.repeat(sentBytes - 1)}`);
      resolve({ socket, answer });
    });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', reject);
    const answer = new Promise<string>((done) => socket.on('close', () => done(received)));
  });
}

for (const dialect of dialects) {
  describe(`request limits (${dialect})`, () => {
    let server: TestServer;

    before(async () => {
      server = await startServer(dialect, { config: { REQUEST_TIMEOUT: 400, MAX_REQUESTS_IN_FLIGHT: 2 } });
    });
    after(async () => server?.close());

    it('cuts a body that does not finish within REQUEST_TIMEOUT with a 408 envelope and closes the connection', async () => {
      const held = await holdBody(server.baseUrl, server.token, 64 * 1024, 1_000_000);
      const answer = await held.answer;
      assert.match(answer, /^HTTP\/1\.1 408 /);
      const envelope = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      assert.deepEqual(
        { status: envelope.status, code: envelope.code, description: envelope.description },
        { status: 408, code: 1017, description: 'REQUEST_TIMEOUT' },
      );
    });

    it('refuses a user over the cap of requests in flight with 429 code 1012 and Retry-After, and lets them in again once one ends', async () => {
      const first = await holdBody(server.baseUrl, server.token, 10, 1_000_000);
      const second = await holdBody(server.baseUrl, server.token, 10, 1_000_000);
      // Once both are past authentication (their bodies being read), a third request is refused.
      let third = await server.api.get(`${LOCATIONS}?count=1`);
      await until('a refusal', async () => (third = await server.api.get(`${LOCATIONS}?count=1`)).status === 429);
      assert.equal(third.body.code, 1012);
      assert.equal(third.headers.get('retry-after'), '1');

      // Another account's user is not held back by this one.
      const { api: stranger } = await server.newAccount();
      assert.equal((await stranger.get(`${LOCATIONS}?count=1`)).status, 200);

      first.socket.destroy();
      second.socket.destroy();
      await until('the user to be let in again', async () => (await server.api.get(`${LOCATIONS}?count=1`)).status === 200);
    });
  });
}
