import type { Db } from '../store/database.js';

/** The statement that reads zone visits (the pipeline writes them: pipeline/pipeline-store.ts). */

export type ZoneVisitRow = { subscriber_id: number; zone_id: number; zone_name: string; entered_ms: number; left_ms: number | null; latitude: number; longitude: number };

/** The visits of these subscribers overlapping `[fromMs, toMs]` (one still inside has no `left_ms`), by subscriber, entry and zone; `page` cuts a run. */
export async function listZoneVisits(db: Db, accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number, page: { limit: number; offset: number } | null = null): Promise<ZoneVisitRow[]> {
  let select = db
    .selectFrom('zone_visits')
    .select(['subscriber_id', 'zone_id', 'zone_name', 'entered_ms', 'left_ms', 'latitude', 'longitude'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', 'in', [...subscriberIds])
    .where('entered_ms', '<=', toMs)
    .where((eb) => eb.or([eb('left_ms', 'is', null), eb('left_ms', '>=', fromMs)]))
    .orderBy('subscriber_id')
    .orderBy('entered_ms')
    .orderBy('zone_id');
  if (page) select = select.limit(page.limit).offset(page.offset);
  return select.execute();
}
