import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { migrate, openDatabase, type Database, type Dialect } from '../../src/store/database.js';
import { migrationProvider } from '../../src/store/migrations/index.js';

/**
 * The stores every test runs on: SQLite always, PostgreSQL when `npm test` started a cluster
 * (or TEST_DATABASE_URL names one). Each call gives a fresh, migrated, empty database: a copy of the
 * run's template when `npm test` made one (see makeTemplates), else migrated from nothing.
 */
export const dialects: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  database: Database;
  url: string;
  drop(): Promise<void>;
}

export async function freshDatabase(dialect: Dialect): Promise<TestDatabase> {
  const template = dialect === 'sqlite' ? process.env.TEST_SQLITE_TEMPLATE : process.env.TEST_DATABASE_TEMPLATE;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'lokator-test-'));
    const url = join(dir, 'lokator.db');
    if (template) copyFileSync(template, url);
    const database = await openDatabase({ url });
    if (!template) await migrate(database);
    return {
      database,
      url,
      async drop() {
        await database.close().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `lokator_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 5 });
  if (!template) await migrate(database);
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close().catch(() => {});
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * Migrates one empty database per store for a whole test run, which every freshDatabase then copies:
 * a file for SQLite (in `dir`), a template database for PostgreSQL (when `adminUrl` is given).
 * Returns the environment that points the test processes at them.
 */
export async function makeTemplates(dir: string, adminUrl?: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const migrated = join(dir, 'migrating.db');
  const sqlite = await openDatabase({ url: migrated });
  await migrate(sqlite);
  env.TEST_SQLITE_TEMPLATE = join(dir, 'template.db');
  // One self-contained file: the write-ahead log folded in.
  await sql`VACUUM INTO ${env.TEST_SQLITE_TEMPLATE}`.execute(sqlite.db);
  await sqlite.close();
  if (adminUrl) {
    const name = `lokator_template_${randomBytes(4).toString('hex')}`;
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const postgres = await openDatabase({ url: url.toString(), poolSize: 1 });
    await migrate(postgres);
    await postgres.close();
    env.TEST_DATABASE_TEMPLATE = name;
  }
  return env;
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database migrated only up to `lastMigration`, as a server of that version left it: for
 * tests of what a later migration does to rows written before it.
 */
export async function databaseMigratedTo(dialect: Dialect, lastMigration: string): Promise<TestDatabase> {
  const store = await freshDatabase(dialect);
  await dropEverything(store.database);
  const migrator = new Migrator({ db: store.database.db, provider: migrationProvider(dialect) });
  const { error } = await migrator.migrateTo(lastMigration);
  if (error) throw error;
  return store;
}

async function dropEverything(database: Database): Promise<void> {
  if (database.dialect === 'postgres') {
    await sql`DROP SCHEMA public CASCADE`.execute(database.db);
    await sql`CREATE SCHEMA public`.execute(database.db);
    return;
  }
  await sql`PRAGMA foreign_keys = OFF`.execute(database.db);
  const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(database.db);
  for (const { name } of tables.rows) await sql`DROP TABLE ${sql.table(name)}`.execute(database.db);
  await sql`PRAGMA foreign_keys = ON`.execute(database.db);
}
