import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BroadcastChannel, Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/store/database.js';
import { DurableCommits } from '../../src/store/wal-sync.js';
import { commitSequence } from '../../src/store/commit-sequence.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';
import { until } from '../helpers/wait.js';

/**
 * A SQLite commit is made durable by a thread of its own, which syncs the write-ahead log and
 * announces the commits it covers on the database's durability channel: the OsmAnd listener's
 * HTTP thread holds a stored fix's 200 until then.
 */

/** A thread that reports every announcement it hears on the channel, as another thread of the server would hear it. */
async function listenerThread(channelName: string): Promise<{ heard: number[]; stop: () => Promise<number> }> {
  const heard: number[] = [];
  const thread = new Worker(
    `const { BroadcastChannel, parentPort, workerData } = require('node:worker_threads');
     const channel = new BroadcastChannel(workerData);
     channel.onmessage = (event) => parentPort.postMessage(event.data);
     parentPort.on('message', () => { channel.close(); parentPort.close(); });
     parentPort.postMessage('listening');`,
    { eval: true, workerData: channelName },
  );
  // News announced before the thread listens is not heard there: commits start once it does.
  await new Promise<void>((listening, failed) => {
    thread.once('error', failed);
    thread.on('message', (news: 'listening' | { durable?: number }) => {
      if (news === 'listening') listening();
      else if (news.durable !== undefined) heard.push(news.durable);
    });
  });
  return { heard, stop: () => (thread.postMessage('stop'), thread.terminate()) };
}

const insertRow = (database: Database, value: string) => async () =>
  database.visibleTransaction(async (tx) => {
    await sql`INSERT INTO t (v) VALUES (${value})`.execute(tx);
  });

describe('commits made durable on a thread of their own (SQLite file)', () => {
  let store: TestDatabase;
  before(async () => {
    store = await freshDatabase('sqlite');
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`.execute(store.database.db);
  });
  after(() => store?.drop());

  it('numbers each commit and announces to every thread the ones on disk, never one not yet made', async () => {
    const { database } = store;
    assert.ok(database.durabilityChannel, 'a file database has a durability channel');
    const listener = await listenerThread(database.durabilityChannel);
    const here = new DurableCommits(database.durabilityChannel);
    try {
      const numbers: number[] = [];
      let made = 0;
      // Announcements heard on the other thread never exceed the commits made when heard.
      const check = setInterval(() => assert.ok(Math.max(0, ...listener.heard) <= made, `heard ${listener.heard.at(-1)} with ${made} commits made`), 1);
      for (let i = 0; i < 40; i++) {
        const { commit, durable } = await insertRow(database, `row ${i}`)();
        made = commit;
        numbers.push(commit);
        if (i % 4 === 0) {
          await durable;
          await here.after(commit);
          assert.ok(here.isDurable(commit));
        }
      }
      // A transaction that rolls back commits nothing and takes no number.
      await assert.rejects(
        database.visibleTransaction(async (tx) => {
          await sql`INSERT INTO t (v) VALUES ('rolled back')`.execute(tx);
          throw new Error('changed my mind');
        }),
        /changed my mind/,
      );
      const { commit: next, durable } = await insertRow(database, 'after the rollback')();
      made = next;
      numbers.push(next);
      await durable;
      await until(() => `the other thread heard ${listener.heard.at(-1)}, last commit ${next}`, () => Math.max(0, ...listener.heard) >= next);
      clearInterval(check);
      assert.deepEqual(numbers.slice(1).map((n, i) => n - numbers[i]!), Array(numbers.length - 1).fill(1), `commit numbers ${numbers.join(' ')}`);
      // Commits made while a sync runs share the next one: fewer announcements than commits is fine; out of order is not.
      assert.deepEqual([...listener.heard].sort((a, b) => a - b), listener.heard);
      await database.durable();
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(database.db);
      assert.equal(rows[0]!.n, 41);
    } finally {
      here.close();
      await listener.stop();
    }
  });

  it('a transaction resolves only once its commit is announced on disk', async () => {
    const { database } = store;
    const here = new DurableCommits(database.durabilityChannel!);
    try {
      const { commit } = await insertRow(database, 'first')();
      await database.transaction(async (tx) => {
        await sql`INSERT INTO t (v) VALUES ('second')`.execute(tx);
      });
      // The transaction's own commit is the next number; the main thread heard it covered before resolving.
      const next = commitSequence(commit + 1);
      await here.after(next);
      assert.ok(here.isDurable(next));
    } finally {
      here.close();
    }
  });
});

describe('where a commit returns durable there is no channel', () => {
  for (const dialect of dialects) {
    if (dialect === 'sqlite') {
      it('sqlite :memory:', async () => {
        const database = await openDatabase({ url: ':memory:' });
        try {
          assert.equal(database.durabilityChannel, null);
          const { commit } = await database.visibleTransaction(async () => {});
          assert.equal(commit, 0);
        } finally {
          await database.close();
        }
      });
    } else {
      it(dialect, async () => {
        const store = await freshDatabase(dialect);
        try {
          assert.equal(store.database.durabilityChannel, null);
          const { commit } = await store.database.visibleTransaction(async () => {});
          assert.equal(commit, 0);
        } finally {
          await store.drop();
        }
      });
    }
  }
});

describe('what a listening thread makes of the news', () => {
  it('a failed sync fails every commit not yet durable, for good: later news and later commits change nothing', async () => {
    const name = `lokator-durability-test-${process.pid}`;
    const news = new DurableCommits(name);
    try {
      const outcome = (commit: number) =>
        news.after(commitSequence(commit)).then(
          () => 'durable',
          (error: Error) => error.message,
        );
      const failed = 'syncing the write-ahead log failed: EIO';
      const [one, two, three] = [outcome(1), outcome(2), outcome(3)];
      news.hear({ durable: commitSequence(1) });
      const failedBefore = news.failed;
      assert.equal(failedBefore, null);
      news.hear({ failed: commitSequence(2), message: 'EIO' });
      // A confused sender cannot revive it: a later sync may "succeed" without what the failed one lost.
      news.hear({ durable: commitSequence(3) });
      assert.deepEqual(await Promise.all([one, two, three]), ['durable', failed, failed]);
      assert.equal(await outcome(4), failed);
      assert.equal(await outcome(1), 'durable', 'what was durable before stays so');
      assert.equal(news.isDurable(commitSequence(2)), false);
      assert.equal(news.failed?.message, failed);
      assert.equal((await news.stopped).message, failed);
    } finally {
      news.close();
    }
  });
});

describe('a database whose log failed to sync takes no more writes (SQLite file)', () => {
  it('stops: transactions are refused and change nothing, and `stopped` says why', async () => {
    const store = await freshDatabase('sqlite');
    const { database } = store;
    const sender = new BroadcastChannel(database.durabilityChannel!);
    try {
      await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`.execute(database.db);
      await insertRow(database, 'before')();
      await database.durable();
      // As the sync thread announces a failed fdatasync (a process-level test makes the real one fail: wal-sync-failure.test.ts).
      sender.postMessage({ failed: Number.MAX_SAFE_INTEGER, message: 'EIO: i/o error, fdatasync' });
      const reason = await database.stopped;
      assert.match(reason.message, /EIO/);
      await assert.rejects(insertRow(database, 'after')(), /takes no more writes.*EIO/);
      await assert.rejects(database.transaction(async (tx) => sql`INSERT INTO t (v) VALUES ('after')`.execute(tx)), /takes no more writes/);
      const { rows } = await sql<{ v: string }>`SELECT v FROM t`.execute(database.db);
      assert.deepEqual(rows.map((r) => r.v), ['before']);
    } finally {
      sender.close();
      await store.drop();
    }
  });
});
