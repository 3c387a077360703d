import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { CLASSIC_QUERY, startOsmAnd, type OsmAndListener } from '../../helpers/osmand.js';
import { createEmployee, startServer, type TestServer } from '../../helpers/server.js';
import { dialects } from '../../helpers/stores.js';

/**
 * the OsmAnd listener never writes a device key to its log, throttles
 * addresses that guess keys, and answers every error with the envelope of CONTRACT §1.
 */

const KNOWN_KEY = 'phone-known-key-1';
const UNUSED_KEY = 'phone-never-used-2';

for (const dialect of dialects) {
  describe(`OsmAnd listener under attack (${dialect})`, () => {
    let server: TestServer;
    let osmand: OsmAndListener;
    const logLines: string[] = [];

    before(async () => {
      server = await startServer(dialect);
      await createEmployee(server.api, { deviceKey: KNOWN_KEY });
      await createEmployee(server.api, { deviceKey: UNUSED_KEY });
      const sink = new Writable({
        write(chunk, _encoding, done) {
          logLines.push(String(chunk));
          done();
        },
      });
      osmand = await startOsmAnd(server.services, undefined, {
        logger: pino({ level: 'trace' }, sink),
        keyGuessLimits: { maxFailures: 5, windowMs: 60_000, lockMs: 60_000 },
      });
    });
    after(async () => {
      await osmand?.close();
      await server?.close();
    });

    it('logs no device key, known or guessed, at any level', async () => {
      assert.equal((await osmand.send('GET', `/?id=${KNOWN_KEY}&${CLASSIC_QUERY}`)).status, 200);
      assert.equal((await osmand.send('GET', `/?id=guessed-key-0&${CLASSIC_QUERY}`)).status, 400);
      assert.ok(logLines.length > 0, 'the listener logged something at trace level');
      const leaked = logLines.filter((line) => line.includes(KNOWN_KEY) || line.includes('guessed-key-0'));
      assert.deepEqual(leaked, []);
    });

    it('answers errors with the envelope: other methods, malformed requests, bad fixes', async () => {
      const put = await osmand.raw(`PUT /?id=${KNOWN_KEY} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n`);
      assert.equal(put.status, 405);
      assert.equal(put.body.code, 1009);
      const malformed = await osmand.raw('GET /?id=x HTTP/1.1\r\nHost: {host}\r\nBad Header\r\n\r\n');
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.code, 2);
      const badJson = await osmand.raw(`POST / HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{"id"`);
      assert.equal(badJson.status, 400);
      assert.equal(badJson.body.code, 2);
    });

    it('refuses an address that guessed too many keys every key it has not proven, a right one included (429, Retry-After), and lets proven ones through', async () => {
      let refused = null;
      for (let i = 1; i <= 10 && !refused; i += 1) {
        const answer = await osmand.send('GET', `/?id=guessed-key-${i}&${CLASSIC_QUERY}`);
        if (answer.status === 429) refused = answer;
        else assert.equal(answer.status, 400);
      }
      assert.ok(refused, 'guessing was throttled');
      assert.equal(refused.body.code, 1012);
      const unproven = await fetch(`${osmand.baseUrl}/?id=${UNUSED_KEY}&${CLASSIC_QUERY}`);
      assert.equal(unproven.status, 429, 'a hit would otherwise tell the guesser it found a key');
      assert.ok(Number(unproven.headers.get('retry-after')) > 0);
      // KNOWN_KEY sent a fix from this address before the guessing: a phone of the same carrier NAT goes on.
      assert.equal((await osmand.send('GET', `/?id=${KNOWN_KEY}&${CLASSIC_QUERY}`)).status, 200);
    });
  });
}
