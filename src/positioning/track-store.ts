import { sql } from 'kysely';
import type { Database, Db } from '../store/database.js';
import type { TracksTable } from '../store/schema.js';
import { idTable } from '../store/id-table.js';

/** The statements that read tracks (the pipeline writes them: pipeline/pipeline-store.ts), and name their ends. */

export type TrackRow = Omit<TracksTable, 'id' | 'start_geocoded' | 'finish_geocoded'> & { id: number };

const columns = [
  'id', 'account_id', 'subscriber_id', 'start_ms', 'finish_ms', 'start_lat', 'start_lon', 'finish_lat', 'finish_lon',
  'distance_m', 'is_open', 'start_address', 'finish_address', 'max_speed_kmh',
] as const;

export interface TrackFilter {
  fromMs: number;
  toMs: number;
  subscriberIds?: number[] | undefined;
  /** Of the tracks that started before `fromMs`, the only ones that may still run into the period (`tracksRunningAt`). */
  running: readonly number[];
  afterId?: number | undefined;
  count: number;
  offset: number;
}

/**
 * The account's tracks that overlap the period, by id. Those that start in the period come from
 * (account, start), or for named subscribers from (subscriber, start) (`+account_id` keeps SQLite
 * from taking the (account, start) index instead, which would read every vehicle's tracks of the
 * period); of those that started before, only the `running` ones, that finish in the period or
 * are open. So a day costs its own tracks, however many came before. An open track's row holds an
 * old finish (its current one is in the pipeline's state), so open tracks are checked by the caller.
 */
export async function listTracks(db: Db, accountId: number, filter: TrackFilter): Promise<TrackRow[]> {
  const bySubscriber = Boolean(filter.subscriberIds?.length);
  const account = bySubscriber ? sql<number>`+${sql.ref('account_id')}` : sql.ref('account_id');
  let starting = db.selectFrom('tracks').select(columns).where(account, '=', accountId).where('start_ms', '>=', filter.fromMs).where('start_ms', '<=', filter.toMs);
  if (bySubscriber) starting = starting.where('subscriber_id', 'in', filter.subscriberIds!);
  const before = db
    .selectFrom('tracks')
    .select(columns)
    .where('account_id', '=', accountId)
    .where('id', 'in', filter.running.length ? [...filter.running] : [0])
    .where((eb) => eb.or([eb('finish_ms', '>=', filter.fromMs), eb('is_open', '=', 1)]));
  let select = db.selectFrom(starting.unionAll(before).as('t')).selectAll();
  // `+id`: SQLite pushes this into both branches, where a bare `id >` would have it walk the
  // account's tracks by id from there instead of seeking the period's.
  if (filter.afterId !== undefined) select = select.where(sql<number>`+${sql.ref('id')}`, '>', filter.afterId);
  return select.orderBy('id').limit(filter.count).offset(filter.offset).execute();
}

/**
 * Each subscriber's last track that started before `beforeMs` (the only one of its tracks that
 * may still run at that instant, a vehicle's tracks never overlapping): one seek per subscriber
 * through (subscriber, start), one statement. (`+account_id`: SQLite would otherwise walk
 * (account, start) from the beginning.)
 */
export async function tracksRunningAt(database: Database, executor: Db, accountId: number, subscriberIds: readonly number[], beforeMs: number): Promise<number[]> {
  if (subscriberIds.length === 0) return [];
  const { rows } = await sql<{ id: number | null }>`
    SELECT (SELECT t.id FROM tracks t WHERE +t.account_id = ${accountId} AND t.subscriber_id = s.id AND t.start_ms < ${beforeMs}
            ORDER BY t.start_ms DESC LIMIT 1) AS id
    FROM ${idTable(database, subscriberIds)} AS s`.execute(executor);
  return rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)]));
}

export async function findTrack(db: Db, accountId: number, id: number): Promise<TrackRow | null> {
  const row = await db.selectFrom('tracks').select(columns).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

export type UnnamedTrackRow = { id: number; account_id: number; start_lat: number; start_lon: number; finish_lat: number; finish_lon: number; start_geocoded: number; finish_geocoded: number };

/** Finished tracks of every account whose ends the geocoder has not named yet, oldest first (the address filler's work). */
export async function unnamedTracks(db: Db, limit: number): Promise<UnnamedTrackRow[]> {
  return db
    .selectFrom('tracks')
    .select(['id', 'account_id', 'start_lat', 'start_lon', 'finish_lat', 'finish_lon', 'start_geocoded', 'finish_geocoded'])
    .where('is_open', '=', 0)
    .where((eb) => eb.or([eb('start_geocoded', '=', 0), eb('finish_geocoded', '=', 0)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Marks both ends named; an address given replaces the fallback name (where the geocoder knows none, the fallback stays). */
export async function nameTrackEnds(db: Db, accountId: number, id: number, names: { start: string | null; finish: string | null }): Promise<void> {
  await db
    .updateTable('tracks')
    .set({
      start_geocoded: 1,
      finish_geocoded: 1,
      ...(names.start ? { start_address: names.start } : {}),
      ...(names.finish ? { finish_address: names.finish } : {}),
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** The reports' page of tracks: from a remembered key (subscriber, start) on, skipping `offset` after it. */
export interface TrackCut {
  after?: { subscriberId: number; startMs: number } | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/**
 * The tracks of these subscribers overlapping `[fromMs, toMs]`, by subscriber and start (the
 * reports' order; an open track's row is checked by the caller as in `listTracks`). `cut.after`
 * walks the (account, subscriber, start) index from a page's key instead of from the first track.
 */
export async function tracksBySubscriber(db: Db, accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number, cut: TrackCut = {}): Promise<TrackRow[]> {
  const after = cut.after;
  let select = db
    .selectFrom('tracks')
    .select(columns)
    .where('account_id', '=', accountId)
    .where('subscriber_id', 'in', after ? subscriberIds.filter((id) => id >= after.subscriberId) : [...subscriberIds])
    .where('start_ms', '<=', toMs)
    .where((eb) => eb.or([eb('finish_ms', '>=', fromMs), eb('is_open', '=', 1)]));
  if (after) select = select.where((eb) => eb.or([eb('subscriber_id', '>', after.subscriberId), eb('start_ms', '>=', after.startMs)]));
  select = select.orderBy('subscriber_id').orderBy('start_ms');
  if (cut.limit !== undefined) select = select.limit(cut.limit).offset(cut.offset ?? 0);
  return select.execute();
}

/** The keys (subscriber, start) of the same tracks in the same order, from the index alone: where the reports' pages start. */
export async function trackKeysBySubscriber(db: Db, accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number): Promise<{ subscriber_id: number; start_ms: number }[]> {
  return db
    .selectFrom('tracks')
    .select(['subscriber_id', 'start_ms'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', 'in', [...subscriberIds])
    .where('start_ms', '<=', toMs)
    .where((eb) => eb.or([eb('finish_ms', '>=', fromMs), eb('is_open', '=', 1)]))
    .orderBy('subscriber_id')
    .orderBy('start_ms')
    .execute();
}

/**
 * The subscriber's last track that started before `atMs`, or its first that started after it: the
 * tracks around a period, where its first stop begins and its last one ends.
 */
export async function adjacentTrack(db: Db, accountId: number, subscriberId: number, side: 'before' | 'after', atMs: number): Promise<TrackRow | undefined> {
  return db
    .selectFrom('tracks')
    .select(columns)
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('start_ms', side === 'before' ? '<' : '>', atMs)
    .orderBy('start_ms', side === 'before' ? 'desc' : 'asc')
    .limit(1)
    .executeTakeFirst();
}
