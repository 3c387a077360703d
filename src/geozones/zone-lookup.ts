import type { Database, Db, Tx } from '../store/database.js';
import { PolygonRing } from './polygon-ring.js';
import { ZoneIndex, type IndexedZone, type ZoneReference } from './zone-index.js';
import { parseBounds, zonesForIndex, zoneVersions, type IndexedZoneRow } from './zone-store.js';
import { ZoneVersionReader } from './zone-version-store.js';

/** A zone as the index last saw it: reused while its version is unchanged. */
interface SeenZone {
  version: number;
  indexed: IndexedZone | null;
}

interface Snapshot {
  version: number;
  index: ZoneIndex;
}

interface AccountState {
  built: Snapshot | null;
  zones: Map<number, SeenZone>;
  pending: Promise<Snapshot> | null;
}

const FETCH_CHUNK = 500;

/**
 * Which enabled zones contain a point, per account, on every server sharing the database.
 *
 * Each account's index is built lazily and labelled with the zone version it was built from. Every
 * lookup first reads the account's version (one indexed read): a newer one, written by this server
 * or any other, makes that very lookup rebuild. A rebuild re-reads only the zones whose own version
 * changed and re-packs the R-tree, so editing one zone of ten thousand is cheap.
 *
 * In a hot loop (the pipeline, per fix): call `indexFor` once per batch, then the index's
 * synchronous `findZonesContaining(latitude, longitude)` for each fix. Inside a transaction, pass
 * it as `executor`: on SQLite one connection is shared, and a read outside the transaction would
 * wait for it to end.
 */
export class ZoneLookup {
  private readonly accounts = new Map<number, AccountState>();
  private readonly versions: ZoneVersionReader;

  constructor(private readonly database: Database) {
    this.versions = new ZoneVersionReader(database);
  }

  /** One version check, then the index's answer: the enabled zones containing the point, by zoneID. */
  async findZonesContaining(accountId: number, latitude: number, longitude: number, executor?: Db | Tx): Promise<ZoneReference[]> {
    const index = await this.indexFor(accountId, executor);
    return index.findZonesContaining(latitude, longitude);
  }

  /** The account's index, current as of this call: every committed zone change is in it. */
  async indexFor(accountId: number, executor: Db | Tx = this.database.db): Promise<ZoneIndex> {
    const wanted = await this.versions.read(accountId, executor);
    const state = this.stateOf(accountId);
    if (state.built && state.built.version >= wanted) return state.built.index;
    // A caller's transaction builds on its own: on SQLite a shared build outside it would wait for it.
    if (executor.isTransaction) return (await this.build(accountId, state, executor)).index;
    if (state.pending) {
      // That build may have read the version before ours; it is good enough only if it saw ours.
      const shared = await state.pending;
      if (shared.version >= wanted) return shared.index;
    }
    state.pending ??= this.build(accountId, state, this.database.db).finally(() => {
      state.pending = null;
    });
    return (await state.pending).index;
  }

  private stateOf(accountId: number): AccountState {
    let state = this.accounts.get(accountId);
    if (!state) {
      state = { built: null, zones: new Map(), pending: null };
      this.accounts.set(accountId, state);
    }
    return state;
  }

  private async build(accountId: number, state: AccountState, executor: Db | Tx): Promise<Snapshot> {
    // The version is read before the zones: the rows are at least that new, never older.
    const version = await this.versions.read(accountId, executor);
    const rows = await zoneVersions(executor, accountId);
    const seen = new Map<number, SeenZone>();
    const stale: number[] = [];
    for (const row of rows) {
      const known = state.zones.get(row.id);
      if (known && known.version === row.version) seen.set(row.id, known);
      else stale.push(row.id);
    }
    for (let i = 0; i < stale.length; i += FETCH_CHUNK) {
      const changed = await zonesForIndex(executor, accountId, stale.slice(i, i + FETCH_CHUNK));
      for (const row of changed) seen.set(row.id, { version: row.version, indexed: toIndexedZone(row) });
    }
    const indexed: IndexedZone[] = [];
    for (const zone of seen.values()) if (zone.indexed) indexed.push(zone.indexed);
    const snapshot = { version, index: ZoneIndex.build(indexed) };
    if (!state.built || state.built.version < version) {
      state.built = snapshot;
      state.zones = seen;
    }
    return snapshot;
  }
}

/** Only enabled zones with an outline take part in lookups; an empty outline contains nothing. */
function toIndexedZone(row: IndexedZoneRow): IndexedZone | null {
  if (row.enabled !== 1) return null;
  const points = parseBounds(row.bounds);
  if (points.length === 0) return null;
  const ref: ZoneReference = Object.freeze({ zoneID: row.id, name: row.name, zoneGroupID: row.zone_group_id });
  return { ref, ring: new PolygonRing(points) };
}
