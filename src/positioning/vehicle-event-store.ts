import type { Db } from '../store/database.js';

/** The statement that reads vehicle events (the pipeline writes them: pipeline/pipeline-store.ts). */

export type VehicleEventRow = { subscriber_id: number; type: number; event_ms: number; latitude: number; longitude: number; value: number };

/**
 * The account's events of these vehicles in the period, by (vehicle, date, type, detail): the order
 * route 6 pages in. The reports ask for some types only, unpaged.
 */
export async function listVehicleEvents(
  db: Db,
  accountId: number,
  filter: { subscriberIds: readonly number[]; fromMs: number; toMs: number; types?: readonly number[]; count?: number; offset?: number },
): Promise<VehicleEventRow[]> {
  let select = db
    .selectFrom('vehicle_events')
    .select(['subscriber_id', 'type', 'event_ms', 'latitude', 'longitude', 'value'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', 'in', [...filter.subscriberIds]);
  if (filter.types) select = select.where('type', 'in', [...filter.types]);
  select = select
    .where('event_ms', '>=', filter.fromMs)
    .where('event_ms', '<=', filter.toMs)
    .orderBy('subscriber_id')
    .orderBy('event_ms')
    .orderBy('type')
    .orderBy('detail');
  if (filter.count !== undefined) select = select.limit(filter.count).offset(filter.offset ?? 0);
  return select.execute();
}
