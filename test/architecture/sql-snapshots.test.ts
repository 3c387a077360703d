import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { before, describe, it } from 'node:test';
import { captureAll, catalogue, QUERIES_DIR, renderSnapshots, type Entry } from '../../scripts/sql-snapshots.js';
import type { Dialect } from '../../src/store/database.js';
import { tableOwners } from '../../scripts/check-tables.mjs';

/**
 * The SQL the stores send is committed in src/queries/<module>.<dialect>.sql, so a query change
 * shows in review as a SQL diff. These tests fail when a snapshot is stale, when a store function
 * has no snapshot, and when a store statement on a tenant table does not name the account.
 */

const root = new URL('../..', import.meta.url).pathname;
const REGENERATE = 'run `npm run sql:snapshots` and commit src/queries/';

/** Tables that are not one account's data: the accounts themselves, the signal-id sequence, sign-in tries (counted before any account is known). */
const NOT_TENANT = new Set(['accounts', 'signal_ids', 'sign_in_attempts']);
const TENANT_TABLES = new Set(Object.values(tableOwners).flat().filter((table) => !NOT_TENANT.has(table)));

/**
 * Store statements that serve every account at once, each for a reason: a credential (login,
 * session token) finds the account, or a worker or sweep serves all of them.
 */
const CROSS_ACCOUNT: Record<string, string> = {
  'accounts/account-store.ts: findTokenPrincipal': 'an API token finds the account',
  'accounts/session-store.ts: findUserByLogin': 'a sign-in finds the account by the login',
  'accounts/session-store.ts: findSession': "a cookie's token finds the account",
  'accounts/session-store.ts: deleteSession': "signing out ends the cookie's session, found by its token",
  'accounts/session-store.ts: deleteEndedSessions': 'expired sessions of every account are forgotten',
  'employees/employee-store.ts: findByDeviceKeys': "a device's key finds the account",
  'employees/employee-store.ts: silentOnline': 'the presence sweep looks at every account (then flips per account)',
  'positioning/track-store.ts: unnamedTracks': 'the address filler names the tracks of every account (then writes each by its account)',
  'reports/schedule-store.ts: dueSchedules': 'the report scheduler serves every account (then claims and sends per account)',
  'delivery/delivery-queue.ts: DeliveryQueue.findHeads': 'the delivery worker serves every account',
  'delivery/delivery-queue.ts: DeliveryQueue.claimHeads': 'the delivery worker claims rows it found by id',
  'delivery/delivery-queue.ts: DeliveryQueue.renewLeases': 'the worker renews its own leases',
  'delivery/delivery-queue.ts: DeliveryQueue.releaseAllClaims': 'at start, claims no living worker holds',
  'delivery/delivery-queue.ts: DeliveryQueue.record': "the worker frees its own claims (the results name the account)",
  'positioning/location-partitions.ts: LocationPartitions.makeAhead (one week more)': "the locations' weekly partitions hold every account's fixes",
  'positioning/location-partitions.ts: LocationPartitions.dropBefore (one week due)': "retention drops whole weeks older than every account's cut-off",
  'retention/run-lock-store.ts: tryLockRun': 'one retention run for every account at a time, across servers',
  'retention/run-lock-store.ts: unlockRun': 'one retention run for every account at a time, across servers',
};

const SQL_CALL = /\b(?:selectFrom|updateTable|deleteFrom|insertInto)\(|\bsql(?:<[^>]*>)?`|\bbulkInsert</;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const key = (entry: Entry) => `${entry.file}: ${entry.name}`;

describe('SQL snapshots', () => {
  let captured: Awaited<ReturnType<typeof captureAll>>;
  before(async () => {
    captured = await captureAll();
  });

  it('src/queries/ holds exactly what the stores send, per module and dialect', async () => {
    const expected = await renderSnapshots();
    const present = readdirSync(QUERIES_DIR).filter((name) => name.endsWith('.sql'));
    assert.deepEqual(present.sort(), [...expected.keys()].sort(), `the snapshot files are not the ones the stores make: ${REGENERATE}`);
    for (const [name, text] of expected) {
      const committed = readFileSync(join(QUERIES_DIR, name), 'utf8');
      assert.ok(committed === text, `src/queries/${name} is stale (a store's SQL changed): ${REGENERATE}`);
    }
  });

  it('cover every statement function of every store, and no SQL is written outside a store', () => {
    const covered = new Set(catalogue.map((e) => e.file));
    const named = new Set(catalogue.map((e) => `${e.file}: ${e.name.split(' ')[0]}`));
    const missing: string[] = [];
    for (const path of sourceFiles(join(root, 'src'))) {
      const file = relative(join(root, 'src'), path);
      if (file.startsWith('store/')) continue;
      const text = readFileSync(path, 'utf8');
      if (!SQL_CALL.test(text)) continue;
      if (!covered.has(file)) {
        missing.push(`${file}: SQL outside a store (move it into one, a function per statement, and add them to scripts/sql-snapshots.ts)`);
        continue;
      }
      // Exported functions whose first parameter is an executor are statements.
      for (const match of text.matchAll(/^export (?:async )?function (\w+)\((?:tx|db|executor|database)\b.*Promise</gm)) {
        if (!named.has(`${file}: ${match[1]}`)) missing.push(`${file}: ${match[1]} has no entry in scripts/sql-snapshots.ts`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('name the account in every statement on a tenant table, but for the listed cross-account ones', () => {
    const unfiltered: string[] = [];
    for (const { entry, dialect, statements } of captured) {
      if (CROSS_ACCOUNT[key(entry)]) continue;
      for (const statement of statements) {
        const tables = [...statement.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+"?([a-z_]+)"?/gi)].map((m) => m[1]!).filter((t) => TENANT_TABLES.has(t));
        if (tables.length > 0 && !/\baccount_id\b/.test(statement)) unfiltered.push(`${key(entry)} (${dialect as Dialect}): ${statement.slice(0, 120)}`);
      }
    }
    assert.deepEqual(unfiltered, []);
  });
});
