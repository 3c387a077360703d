import { sql } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database, Tx } from '../store/database.js';
import type { LocationsTable } from '../store/schema.js';
import type { Fix } from './fix.js';

export type LocationRow = Omit<LocationsTable, 'id'> & { id: number };

const COLUMNS = [
  'account_id', 'subscriber_id', 'location_date', 'received_at', 'is_valid', 'latitude', 'longitude', 'angle',
  'velocity', 'fuel_level', 'ignition', 'external_power', 'odometer', 'engine_hours', 'sensors',
] as const;
const PG_TYPES = [
  'bigint', 'bigint', 'bigint', 'bigint', 'integer', 'double precision', 'double precision', 'integer',
  'double precision', 'double precision', 'integer', 'integer', 'double precision', 'double precision', 'text',
];

const flag = (value: boolean | null) => (value === null ? null : value ? 1 : 0);

function values(accountId: number, receivedAt: number, fix: Fix): unknown[] {
  return [
    accountId, fix.subscriberId, fix.locationDateMs, receivedAt, fix.isValid ? 1 : 0, fix.latitude, fix.longitude, fix.angle,
    fix.velocityKmh, fix.fuelLevel, flag(fix.ignition), flag(fix.externalPower), fix.odometer, fix.engineHours,
    fix.sensors ? JSON.stringify(fix.sensors) : null,
  ];
}

/**
 * Stores fixes inside the caller's transaction: the hot path of ingestion. SQLite reuses one
 * prepared statement per row; PostgreSQL sends the whole batch as column arrays in one
 * statement (`unnest`), so its SQL text never changes with the batch size.
 */
export class LocationStore {
  private sqliteInsert: BetterSqlite3.Statement | null = null;

  constructor(private readonly database: Database) {}

  async insert(tx: Tx, accountId: number, receivedAt: number, fixes: Fix[]): Promise<void> {
    const sqlite = this.database.sqlite;
    if (sqlite) {
      this.sqliteInsert ??= sqlite.prepare(
        `INSERT INTO locations (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
      );
      // Runs on the connection Kysely holds for `tx`, so the rows commit or roll back with it.
      for (const fix of fixes) this.sqliteInsert.run(values(accountId, receivedAt, fix));
      return;
    }
    const columns = COLUMNS.map(() => [] as unknown[]);
    for (const fix of fixes) values(accountId, receivedAt, fix).forEach((v, i) => columns[i]!.push(v));
    const arrays = columns.map((column, i) => sql`${column}::${sql.raw(PG_TYPES[i]!)}[]`);
    await sql`INSERT INTO locations (${sql.raw(COLUMNS.join(', '))})
              SELECT * FROM unnest(${sql.join(arrays)})`.execute(tx);
  }
}
