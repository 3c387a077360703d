import type { Kysely } from 'kysely';
import { foldCase } from '../../http/free-text.js';
import type { Dialect } from '../dialect.js';
import type { MigrationFactory } from './migration-helpers.js';

const PAGE = 1000;

/**
 * Map objects' addresses are searched in a folded copy written by the server (`foldCase`), so that
 * the address filter ignores case in Cyrillic as in Latin on both stores: SQLite's `lower()` folds
 * ASCII only, and PostgreSQL's follows the database's locale (ASCII only under `C`). The copy of
 * existing rows is written here, a page of ids at a time.
 */
export const foldedTexts: MigrationFactory = (_dialect: Dialect) => ({
  async up(untyped: Kysely<unknown>) {
    const db = untyped as Kysely<{ map_objects: { id: number; address: string; address_folded: string } }>;
    await db.schema.alterTable('map_objects').addColumn('address_folded', 'text', (c) => c.notNull().defaultTo('')).execute();
    for (let lastId = 0; ; ) {
      const rows = await db.selectFrom('map_objects').select(['id', 'address']).where('id', '>', lastId).orderBy('id').limit(PAGE).execute();
      for (const row of rows) {
        if (row.address !== '') await db.updateTable('map_objects').set({ address_folded: foldCase(row.address) }).where('id', '=', row.id).execute();
      }
      if (rows.length < PAGE) break;
      lastId = Number(rows.at(-1)!.id);
    }
  },
});
