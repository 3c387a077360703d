import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BroadcastChannel } from 'node:worker_threads';
import type { IngestPort } from '../../../src/positioning/positioning.js';
import { commitSequence, type CommitSequence } from '../../../src/store/commit-sequence.js';
import type { DurabilityNews } from '../../../src/store/wal-sync.js';
import { startOsmAnd, type OsmAndListener, type OsmAndResponse } from '../../helpers/osmand.js';
import { createEmployee, startServer, type TestServer } from '../../helpers/server.js';
import { until } from '../../helpers/wait.js';

const NOW = Date.parse('2024-05-20T12:00:00Z');
const KEY = 'durability-phone';

/**
 * A stored fix's 200 leaves the listener's HTTP thread only once the sync covering its commit is
 * announced (CONTRACT: a write is acknowledged once durable). Everything here is the real
 * server on SQLite, except where the HTTP thread hears the news: a channel of the test's own, so
 * that what it does before the news, and with a failed sync, can be seen.
 */
describe('the OsmAnd listener answers a stored fix once its commit is on disk (SQLite)', () => {
  let server: TestServer;
  let osmand: OsmAndListener;
  let news: BroadcastChannel;
  before(async () => {
    server = await startServer('sqlite', { now: NOW });
    await createEmployee(server.api, { name: 'Held Phone', deviceKey: KEY });
    const channelName = `lokator-test-durability-${randomUUID()}`;
    news = new BroadcastChannel(channelName);
    // The listener hears of durable commits from the ingest port's channel: this test's own.
    const ingest: IngestPort = Object.create(server.services.positioning.ingest, { durabilityChannel: { value: channelName } });
    osmand = await startOsmAnd({ ...server.services, positioning: { ...server.services.positioning, ingest } }, () => NOW);
  });
  after(async () => {
    news?.close();
    await osmand?.close();
    await server?.close();
  });

  const announce = (message: DurabilityNews) => news.postMessage(message);
  const stored = async (timestampS: number) =>
    (await server.database.db.selectFrom('locations').select('id').where('location_date', '=', timestampS * 1000).execute()).length;
  /** The number of a commit made now: the fix's commit lies between two of these. */
  const commitNow = async () => (await server.database.visibleTransaction(async () => {})).commit;

  /** Sends a fix; resolves once it is committed (visible), with the pending answer and the commits around it. */
  async function sendHeld(timestampS: number): Promise<{ answer: Promise<OsmAndResponse>; answered: () => boolean; before: CommitSequence; after: CommitSequence }> {
    const before = await commitNow();
    let answered = false;
    const answer = osmand.send('GET', `/?id=${KEY}&lat=55.75&lon=37.61&timestamp=${timestampS}`).then((response) => {
      answered = true;
      return response;
    });
    await until(`fix ${timestampS} to be stored`, async () => (await stored(timestampS)) === 1);
    return { answer, answered: () => answered, before, after: await commitNow() };
  }

  it('holds the 200 until its commit is announced, not an earlier one', async () => {
    const timestampS = NOW / 1000 - 600;
    const fix = await sendHeld(timestampS);
    assert.ok(fix.after > fix.before + 1, `the fix's commit lies between ${fix.before} and ${fix.after}`);
    // The real sync thread has long synced it; the listener hears only this test's channel.
    announce({ durable: fix.before });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(fix.answered(), false, 'answered before its commit was announced on disk');
    announce({ durable: fix.after });
    const response = await fix.answer;
    assert.equal(response.status, 200, response.text);
  });

  it('answers 500 when the sync meant to cover its commit failed, and nothing as stored after it', async () => {
    const timestampS = NOW / 1000 - 300;
    const fix = await sendHeld(timestampS);
    announce({ failed: fix.after, message: 'EIO' });
    const response = await fix.answer;
    assert.equal(response.status, 500, response.text);
    assert.equal(response.body.status, 500);
    assert.doesNotMatch(response.text, /EIO|durability/);
    // The device sends it again, as a client does after a 500. A failed sync is the end (the
    // server exits, see wal-sync-failure.test.ts): even a later "durable" does not make it a 200.
    const again = osmand.send('GET', `/?id=${KEY}&lat=55.75&lon=37.61&timestamp=${timestampS}`);
    const next = osmand.send('GET', `/?id=${KEY}&lat=55.75&lon=37.62&timestamp=${timestampS + 10}`);
    await until('the next fix to be stored', async () => (await stored(timestampS + 10)) === 1);
    announce({ durable: commitSequence(Number.MAX_SAFE_INTEGER) });
    assert.equal((await again).status, 500);
    assert.equal((await next).status, 500);
    assert.equal(await stored(timestampS), 1, 'the resent fix is stored once');
  });
});
