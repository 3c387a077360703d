import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { findPostgresBin, startCluster, startReplica, type Cluster, type Server } from '../../scripts/pg-cluster.mjs';
import { hashToken, newApiToken } from '../../src/accounts/secrets.js';
import { isPlainRead } from '../../src/store/replica.js';
import { migrate, openDatabase, type Database } from '../../src/store/database.js';
import { Client, createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';

const bin = findPostgresBin();
const DB = 'lokator_replica';

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function sqlOn(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

const on = (url: string, database: string) => Object.assign(new URL(url), { pathname: `/${database}` }).toString();

/**
 * DATABASE_REPLICA_URL against a real streaming replica this test starts: a primary (initdb),
 * `pg_basebackup -R` of it, and a second server on another loopback port. Both stores' passes
 * of the suite run it; it needs only PostgreSQL's binaries.
 */
describe('reads from a streaming replica', { skip: !bin && 'PostgreSQL binaries (initdb) are not on this machine' }, () => {
  let primary: Cluster;
  let replica: Server;
  let patient: Database;
  let strict: Database;
  let server: TestServer;
  let strictServer: TestServer;
  let writer: Client;
  let reader: Client;
  let vehicle: number;
  let t = Date.parse('2026-05-20T08:00:00Z');

  const post = async (api: Client) => {
    t += 10_000;
    const answer = await api.post(LOCATIONS, [{ subscriberID: vehicle, locationDate: new Date(t).toISOString(), latitude: 55.75, longitude: 37.6 }]);
    assert.equal(answer.status, 201);
    return new Date(t).toISOString().replace('.000Z', '+00:00');
  };
  const newest = async (api: Client) => (await api.get(`${LOCATIONS}?subscriberIDs=${vehicle}&count=1&dateFrom=2026-05-19T00:00:00Z`)).body[0]?.locationDate;

  before(async () => {
    const started = await startCluster(bin!, ['fsync=off']);
    if ('error' in started) throw new Error(started.error);
    primary = started;
    await sqlOn(primary.url, `CREATE DATABASE ${DB}`);
    const copy = await startReplica(bin!, primary);
    if ('error' in copy) throw new Error(copy.error);
    replica = copy;
    const url = on(primary.url, DB);
    const replicaUrl = on(replica.url, DB);
    // Two servers on the same primary and replica: one lets the replica lag a minute, the other 300 ms.
    patient = await openDatabase({ url, poolSize: 5, replica: { url: replicaUrl, maxLagMs: 60_000, probeMs: 100 } });
    strict = await openDatabase({ url, poolSize: 5, replica: { url: replicaUrl, maxLagMs: 300, probeMs: 100 } });
    await migrate(patient);
    server = await startServer('postgres', { database: { database: patient, url, drop: () => patient.close() } });
    strictServer = await startServer('postgres', { database: { database: strict, url, drop: () => strict.close() } });
    writer = server.api;
    vehicle = await createEmployee(writer, { name: 'Truck on the replica' });
    // A second user of the same account with a token of its own: it has written nothing.
    const user = await patient.db.insertInto('users').values({ account_id: server.account.id, login: 'reader', password_hash: 'disabled$', created_at: 0 }).returning('id').executeTakeFirstOrThrow();
    const token = newApiToken();
    await patient.db.insertInto('api_tokens').values({ account_id: server.account.id, user_id: user.id, token_hash: hashToken(token), label: 'reader', created_at: 0, revoked_at: null }).execute();
    reader = writer.withToken(token);
  });
  after(async () => {
    await server?.close();
    await strictServer?.close();
    replica?.stop();
    primary?.stop();
  });

  it('serves the reads of a user who wrote nothing from the replica, and a writer’s reads from the primary', async () => {
    const first = await post(writer);
    await eventually('the replica has the first fix', async () => (await newest(reader)) === first);
    assert.ok(patient.replica!.status().reads > 0, 'read on the replica');

    await sqlOn(on(replica.url, DB), 'SELECT pg_wal_replay_pause()');
    try {
      const second = await post(writer);
      assert.equal(await newest(writer), second, 'the writer reads its own write at once (primary)');
      assert.equal(await newest(reader), first, 'the other user reads the replica, which has not replayed it yet');
      assert.ok(patient.replica!.status().usable, 'a minute of lag is allowed there');
      // A GET that writes on first use (the signing secret) reads back what it wrote, from the primary.
      const secret = await reader.get('/v6/api/eventManagement/signingSecret');
      assert.equal(secret.status, 200);
      assert.match(secret.body.secret, /^whsec_/);

      // The server that allows 300 ms of lag stops using the paused replica and reads the primary.
      await eventually('reads go back to the primary once the replica lags', async () => (await newest(strictServer.api.withToken(reader.token))) === second);
      assert.equal(strict.replica!.status().usable, false);
    } finally {
      await sqlOn(on(replica.url, DB), 'SELECT pg_wal_replay_resume()');
    }
    await eventually('the replica catches up', async () => (await newest(reader)) === (await newest(writer)));
    await eventually('the strict server uses the replica again', async () => strict.replica!.status().usable);
  });

  it('answers every read from the primary when the replica is stopped', async () => {
    const readsBefore = patient.replica!.status().reads;
    replica.stop();
    const third = await post(writer);
    await eventually('the third fix, read by the other user', async () => (await newest(reader)) === third);
    for (let i = 0; i < 10; i++) assert.equal((await reader.get(`${LOCATIONS}?subscriberIDs=${vehicle}&count=5&dateFrom=2026-05-19T00:00:00Z`)).status, 200);
    await eventually('the replica is no longer used', async () => !patient.replica!.status().usable);
    const readsAfter = patient.replica!.status().reads;
    assert.equal((await reader.get(`${LOCATIONS}?subscriberIDs=${vehicle}&count=5&dateFrom=2026-05-19T00:00:00Z`)).status, 200);
    assert.equal(patient.replica!.status().reads, readsAfter, 'nothing more read there');
    assert.ok(readsAfter >= readsBefore);
  });
});

describe('which statements a replica may answer', () => {
  it('plain reads only: no write, lock, sequence or notification', () => {
    for (const read of ['select "id" from "locations" where "account_id" = $1', 'SELECT 1', '  WITH x AS (SELECT 1) SELECT * FROM x']) assert.ok(isPlainRead(read), read);
    for (const other of [
      'begin', 'insert into "tracks" values ($1)', 'UPDATE deliveries SET status = $1', 'delete from "zones"',
      'SELECT id FROM deliveries FOR UPDATE SKIP LOCKED', 'select * from t for share', 'SELECT pg_advisory_xact_lock(1)',
      'SELECT nextval(\'locations_id_seq\')', 'SELECT pg_notify($1, $2)', 'WITH gone AS (DELETE FROM t RETURNING id) SELECT * FROM gone',
    ]) assert.equal(isPlainRead(other), false, other);
  });
});
