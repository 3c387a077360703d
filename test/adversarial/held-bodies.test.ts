import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startProcess, type RunningProcess } from '../helpers/process.js';
import { LOCATIONS } from '../helpers/server.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';
import { until } from '../helpers/wait.js';

/**
 * Against `npm start` as a real process (so its memory can be read): a body
 * announced large and sent slowly or never finished is cut at REQUEST_TIMEOUT, the server's RSS
 * stays bounded while many such requests are held, and one token cannot have more than
 * MAX_REQUESTS_IN_FLIGHT requests open (429 code 1012 with Retry-After).
 */

const TOKEN = 'held-bodies-bootstrap-token-0123';
const REQUEST_TIMEOUT_MS = 1500;
const MAX_IN_FLIGHT = 4;
/** Held requests, and how much of its announced body each sends before it stops. */
const HELD = 40;
const SENT_BYTES = 8 * 1024 * 1024;
const ANNOUNCED_BYTES = 16_000_000;
/**
 * Growth of the RSS allowed while they are held. With the cap, at most MAX_IN_FLIGHT bodies are
 * buffered (4 × 8 MiB, twice that with the parser's copies); without it, 40 × 8 MiB = 320 MiB of
 * bodies alone. Measured with the cap: 47–73 MiB on Node 22, 108–129 MiB on Node 24 (its
 * collector lets the refused requests' discarded bytes pile up longer), so the bound sits halfway
 * between the capped and the uncapped server.
 */
const RSS_GROWTH_BOUND_BYTES = 224 * 1024 * 1024;

interface Held {
  socket: Socket;
  /** Resolves with all the server sent once the connection has closed. */
  answer: Promise<string>;
  /** Resolves once the first part of the body has been handed to the kernel (or the server answered first). */
  sent: Promise<void>;
  /** Resolves with what the server sent as soon as it sent anything. */
  firstBytes: Promise<string>;
  /** What the server has sent so far. */
  received(): string;
}

/** A POST whose headers announce `announced` bytes; `sent` of them are written, then nothing more unless `trickle`. */
function holdRequest(port: number, path: string, headers: Record<string, string>, announced: number, sent: number): Held {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let onFirst: (text: string) => void = () => {};
  const firstBytes = new Promise<string>((resolve) => (onFirst = resolve));
  socket.on('data', (chunk) => {
    received += chunk.toString();
    onFirst(received);
  });
  // The server may answer (429, 408) and close while the body is still being written.
  socket.on('error', () => {});
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  const sentPromise = new Promise<void>((resolve) => {
    socket.on('connect', () => {
      const head = Object.entries({ host: '127.0.0.1', 'content-type': 'application/json', 'content-length': String(announced), ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
      if (sent === 0) return resolve();
      socket.write(`[${' '.repeat(sent - 1)}`, () => resolve());
    });
    socket.on('close', () => resolve());
  });
  return { socket, answer, sent: sentPromise, firstBytes, received: () => received };
}

/** The status, headers and parsed JSON body of the first answer in raw HTTP/1.1 text (null while incomplete). */
function parseAnswer(text: string): { status: number; headers: string; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const split = text.indexOf('\r\n\r\n');
  const headers = split === -1 ? text : text.slice(0, split);
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(headers)?.[1] ?? -1);
  const rest = text.slice(split + 4);
  let body: unknown = null;
  if (split !== -1 && length >= 0 && rest.length >= length) {
    try {
      body = JSON.parse(rest.slice(0, length));
    } catch {
      body = rest.slice(0, length);
    }
  }
  return { status, headers, body };
}

/** Resident memory of a process, from /proc. */
function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** Settles `promise` into a flag that can be read without awaiting. */
function track<T>(promise: Promise<T>): { done: boolean; value?: T } {
  const state: { done: boolean; value?: T } = { done: false };
  void promise.then((value) => {
    state.done = true;
    state.value = value;
  });
  return state;
}

for (const dialect of dialects) {
  describe(`held bodies against a server process on ${dialect}`, () => {
    let server: RunningProcess;
    const auth = { authorization: `Bearer ${TOKEN}` };

    const started: Array<{ server: RunningProcess; database: TestDatabase | null; dataDir: string | null }> = [];
    /** `npm start` on a database of its own, with these limits. */
    async function startServer(requestTimeoutMs: number): Promise<RunningProcess> {
      const env: Record<string, string> = {
        LOKATOR_BOOTSTRAP_TOKEN: TOKEN,
        REQUEST_TIMEOUT: `${requestTimeoutMs}ms`,
        MAX_REQUESTS_IN_FLIGHT: String(MAX_IN_FLIGHT),
        LOG_LEVEL: 'error',
      };
      let database: TestDatabase | null = null;
      let dataDir: string | null = null;
      if (dialect === 'postgres') {
        database = await freshDatabase('postgres');
        env.DATABASE_URL = database.url;
      } else {
        dataDir = mkdtempSync(join(tmpdir(), 'lokator-held-'));
        env.DATA_DIR = dataDir;
      }
      const running = await startProcess(env);
      started.push({ server: running, database, dataDir });
      return running;
    }

    before(async () => {
      server = await startServer(REQUEST_TIMEOUT_MS);
    });
    after(async () => {
      for (const { server: running, database, dataDir } of started) {
        running.child.kill('SIGKILL');
        await running.exited;
        await database?.drop();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('cuts a body that trickles in and never completes at REQUEST_TIMEOUT, with a 408 envelope', async () => {
      const held = holdRequest(server.port, LOCATIONS, auth, 1_000_000, 1);
      const closed = track(held.answer);
      await held.sent;
      // A byte every 50 ms keeps the connection busy, but the request as a whole is late.
      const trickle = setInterval(() => held.socket.writable && held.socket.write(' '), 50);
      try {
        await until('the trickled request to be cut', () => closed.done);
      } finally {
        clearInterval(trickle);
      }
      const { status, body } = parseAnswer(closed.value!);
      assert.equal(status, 408, `answered ${closed.value!.slice(0, 300)}`);
      assert.equal(body.status, 408);
      assert.equal(body.description, 'REQUEST_TIMEOUT');
    });

    it('cuts a header block that never ends at REQUEST_TIMEOUT', async () => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(`GET ${LOCATIONS} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${TOKEN}\r\n`));
      // Read what the server sends (the 408): a socket whose data is never read does not report its close.
      socket.on('error', () => {}).resume();
      const closed = track(new Promise<void>((resolve) => socket.on('close', () => resolve())));
      try {
        await until('the unfinished headers to be cut', () => closed.done, 10 * REQUEST_TIMEOUT_MS);
      } finally {
        socket.destroy();
      }
    });

    it('cuts a large body whose last bytes are held back at REQUEST_TIMEOUT', async () => {
      const held = holdRequest(server.port, LOCATIONS, auth, ANNOUNCED_BYTES, SENT_BYTES);
      const closed = track(held.answer);
      await held.sent;
      await until('the held request to be cut', () => closed.done);
      assert.equal(parseAnswer(closed.value!).status, 408, `answered ${closed.value!.slice(0, 300)}`);
    });

    it(`holds the RSS within a bound while ${HELD} large unfinished bodies are sent at once on one token, and cuts them all`, async (t) => {
      const baseline = rssBytes(server.child.pid!);
      const requests = Array.from({ length: HELD }, () => holdRequest(server.port, LOCATIONS, auth, ANNOUNCED_BYTES, SENT_BYTES));
      const closed = requests.map((r) => track(r.answer));
      // Each has written its part of the body or been closed: the memory now is the memory of holding them.
      await Promise.all(requests.map((r) => r.sent));
      let peak = 0;
      const withinBound = () => {
        peak = Math.max(peak, rssBytes(server.child.pid!));
        const growth = peak - baseline;
        assert.ok(
          growth < RSS_GROWTH_BOUND_BYTES,
          `RSS grew by ${Math.round(growth / 2 ** 20)} MiB (from ${Math.round(baseline / 2 ** 20)} MiB) while ${HELD} bodies of ${SENT_BYTES / 2 ** 20} MiB were held; the bound is ${RSS_GROWTH_BOUND_BYTES / 2 ** 20} MiB`,
        );
      };
      withinBound();
      await until('every held request to be cut', () => {
        withinBound();
        return closed.every((c) => c.done);
      });
      t.diagnostic(`RSS ${Math.round(baseline / 2 ** 20)} MiB before, peak ${Math.round(peak / 2 ** 20)} MiB while held`);
      // Those over the cap were refused (their connection closed while they wrote: the 429 itself is lost to the reset); none is answered 2xx.
      for (const c of closed) assert.doesNotMatch(c.value!, /^HTTP\/1\.1 2/, 'no held body is taken');
      await until('the token to be let in again', async () => (await fetch(`http://127.0.0.1:${server.port}${LOCATIONS}?count=1`, { headers: auth })).status === 200);
    });

    it(`refuses a token's request over MAX_REQUESTS_IN_FLIGHT with 429 code 1012 and Retry-After, and lets it in again once they end`, async () => {
      // A server of its own whose deadline outlasts the test: with REQUEST_TIMEOUT's 1.5 s the held
      // requests could be cut before a busy machine had polled the refusal.
      const server = await startServer(60_000);
      const hold = () => holdRequest(server.port, LOCATIONS, auth, ANNOUNCED_BYTES, 64 * 1024);
      const held = Array.from({ length: MAX_IN_FLIGHT }, hold);
      await Promise.all(held.map((r) => r.sent));
      // Once the held ones are past authentication (their bodies being read), more are refused. A
      // probe that reaches the server before a held request takes that request's place (the held
      // one is refused and closed): hold another in its stead.
      let lastStatus = 0;
      await until(
        () => `a refusal (last answer ${lastStatus}; the held requests got: ${held.map((r) => JSON.stringify(r.received().slice(0, 200))).join(', ')})`,
        async () => {
          held.forEach((request, i) => {
            if (request.received() === '') return;
            request.socket.destroy();
            held[i] = hold();
          });
          await Promise.all(held.map((r) => r.sent));
          lastStatus = (await fetch(`http://127.0.0.1:${server.port}${LOCATIONS}?count=1`, { headers: auth })).status;
          return lastStatus === 429;
        },
      );
      const extra = Array.from({ length: 8 }, () => holdRequest(server.port, LOCATIONS, auth, ANNOUNCED_BYTES, 1024));
      for (const request of extra) {
        await until('the refusal', () => parseAnswer(request.received()).body !== null);
        const { status, headers, body } = parseAnswer(request.received());
        request.socket.destroy();
        assert.equal(status, 429, request.received().slice(0, 300));
        assert.equal(body.code, 1012);
        assert.equal(body.status, 429);
        assert.match(headers, /\r\nretry-after: \d+/i, 'Retry-After');
      }
      for (const request of held) request.socket.destroy();
      await until('the token to be let in again', async () => (await fetch(`http://127.0.0.1:${server.port}${LOCATIONS}?count=1`, { headers: auth })).status === 200);
    });

    it('cuts a held body and an unfinished header block on the OsmAnd port at REQUEST_TIMEOUT too', async () => {
      // The phone's port reads the body before it knows the device: without a deadline anyone can hold its connections for 5 minutes (Node's default).
      const body = holdRequest(server.osmandPort, '/?id=held', {}, 60_000, 1);
      const bodyClosed = track(body.answer);
      const headers = connect(server.osmandPort, '127.0.0.1', () => headers.write('GET /?id=held HTTP/1.1\r\nhost: 127.0.0.1\r\n'));
      headers.on('error', () => {}).resume();
      const headersClosed = track(new Promise<void>((resolve) => headers.on('close', () => resolve())));
      await body.sent;
      try {
        await until('the OsmAnd port to cut the held body and the unfinished headers', () => bodyClosed.done && headersClosed.done, 10 * REQUEST_TIMEOUT_MS);
      } finally {
        body.socket.destroy();
        headers.destroy();
      }
    });

    it('refuses a request without a valid token before its body is read', async () => {
      const held = holdRequest(server.port, LOCATIONS, { authorization: 'Bearer not-a-token-of-anyone-000000' }, ANNOUNCED_BYTES, 64 * 1024);
      await until('the refusal', () => parseAnswer(held.received()).body !== null);
      const { status, body } = parseAnswer(held.received());
      held.socket.destroy();
      assert.equal(status, 401);
      assert.equal(body.code, 1);
    });
  });
}
