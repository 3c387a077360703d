import type { Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import { resolvePeriod } from '../http/list-params.js';
import type { Database } from '../store/database.js';
import type { EventListQuery } from './track-schema.js';
import { listVehicleEvents } from './vehicle-event-store.js';

export interface VehicleEventsAnswer {
  data: { subscriberID: number; events: { type: number; latitude: number; longitude: number; value: number; eventDate: string }[] }[];
}

/** Route 6 of interface 4.1: vehicle events found by the pipeline, grouped per vehicle. */
export class VehicleEventService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Records by (subscriber, date); `count`/`offset` apply to records before grouping (CONTRACT §1). */
  async list(account: Account, query: EventListQuery): Promise<VehicleEventsAnswer> {
    const period = resolvePeriod(query, { from: 'startDate', to: 'finishDate' }, account.timeZone, this.clock());
    const rows = await listVehicleEvents(this.database.db, account.id, {
      subscriberIds: query.subscriberIDs,
      fromMs: period.fromMs,
      toMs: period.toMs,
      count: query.count ?? 1000,
      offset: query.offset ?? 0,
    });
    return {
      data: groupBySubscriber(rows, (r) => ({
        type: r.type,
        latitude: r.latitude,
        longitude: r.longitude,
        value: r.value,
        eventDate: formatDateTime(r.event_ms, account.timeZone),
      })).map(([subscriberID, events]) => ({ subscriberID, events })),
    };
  }
}

/** Consecutive rows of one subscriber become one group (rows come ordered by subscriber). */
export function groupBySubscriber<R extends { subscriber_id: number }, T>(rows: R[], map: (row: R) => T): [number, T[]][] {
  const groups: [number, T[]][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last[0] === row.subscriber_id) last[1].push(map(row));
    else groups.push([row.subscriber_id, [map(row)]]);
  }
  return groups;
}
