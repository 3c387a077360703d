import type { Account } from '../accounts/accounts.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import { formatDateTime, parseDateTime } from '../http/datetime.js';
import { ApiError } from '../http/errors.js';
import { resolvePeriod } from '../http/list-params.js';
import type { LocationService } from './location-service.js';
import type { Database } from '../store/database.js';
import { resultCodes, type ResultName, type SubscriberRequest, type SubscriberRequestListQuery } from './subscriber-request-schema.js';
import { findRequest, insertRequest, lastAnsweredAt, listRequests, lockEmployeeRequests, type RequestRow } from './subscriber-request-store.js';

/** One answered request per employee per minute; more are refused with the original's code 588. */
export const REQUEST_INTERVAL_MS = 60_000;
/** A fix this recent is what a fresh locate would have given: the phone reports on its own interval. */
export const FRESH_FIX_MS = 60_000;

const names = Object.fromEntries(Object.entries(resultCodes).map(([name, code]) => [code, name])) as Record<number, ResultName>;

/**
 * "Locate now" (`POST /v6/api/subscriberManagement/subscriberRequests`). Lokator's phones speak
 * the OsmAnd HTTP protocol (OsmAnd, Traccar Client): they send fixes on their own interval and
 * cannot be asked for one. So a request is answered from what the phone already sent: its latest
 * fix when it is fresh (0), otherwise a code that says why there is none (5, 585, 906). Every
 * request is recorded with its result.
 */
export class SubscriberRequestService {
  private readonly database: Database;
  private readonly employees: Pick<EmployeeDirectory, 'get'>;
  private readonly locations: Pick<LocationService, 'latestOfEach'>;
  private readonly clock: () => number;

  constructor(options: { database: Database; employees: Pick<EmployeeDirectory, 'get'>; locations: Pick<LocationService, 'latestOfEach'>; clock?: () => number }) {
    this.database = options.database;
    this.employees = options.employees;
    this.locations = options.locations;
    this.clock = options.clock ?? Date.now;
  }

  async request(account: Account, subscriberID: number): Promise<SubscriberRequest> {
    const employee = await this.employees.get(account, subscriberID);
    const [latest] = await this.locations.latestOfEach(account, [subscriberID]);
    const row = await this.database.transaction(async (tx) => {
      // SQLite runs one write transaction at a time already.
      if (this.database.dialect === 'postgres') await lockEmployeeRequests(tx, account.id, subscriberID);
      const now = this.clock();
      const last = await lastAnsweredAt(tx, account.id, subscriberID, resultCodes.REQUESTED_TOO_OFTEN);
      let result: { code: number; message: string; locationId: number | null };
      if (last !== null && now - last < REQUEST_INTERVAL_MS) {
        result = { code: resultCodes.REQUESTED_TOO_OFTEN, message: 'the employee was located less than a minute ago', locationId: null };
      } else if (!employee.isLocateEnabled) {
        result = { code: resultCodes.LOCATE_DISABLED, message: 'location detection is disabled for this employee (isLocateEnabled)', locationId: null };
      } else if (!employee.isOnline) {
        result = { code: resultCodes.SUBSCRIBER_OFFLINE, message: 'the employee’s phone is offline: no fixes within the online timeout', locationId: null };
      } else if (latest && now - parseDateTime(latest.locationDate, 'UTC')!.epochMs <= FRESH_FIX_MS) {
        result = {
          code: resultCodes.SUCCESS,
          message: 'located: the phone’s latest fix is under a minute old (OsmAnd HTTP phones cannot be asked for a fix, they report on their own interval)',
          locationId: latest.locationID,
        };
      } else {
        result = {
          code: resultCodes.CANNOT_LOCATE,
          message: 'the phone speaks the OsmAnd HTTP protocol (OsmAnd, Traccar Client), which cannot be asked for a fix; its next fix will appear in lastLocations',
          locationId: null,
        };
      }
      const stored = { subscriber_id: subscriberID, requested_at: now, result_code: result.code, location_id: result.locationId, message: result.message };
      return { ...stored, id: await insertRequest(tx, account.id, stored), nextAllowedMs: (last ?? 0) + REQUEST_INTERVAL_MS };
    });
    if (row.result_code === resultCodes.REQUESTED_TOO_OFTEN) {
      // Recorded (above), then refused: the original answers 588 when requests come too often.
      const retryAfter = Math.max(1, Math.ceil((row.nextAllowedMs - row.requested_at) / 1000));
      throw new ApiError('REQUESTED_TOO_OFTEN', `subscriber ${subscriberID} was located less than a minute ago; try again later`, undefined, {
        'retry-after': String(retryAfter),
      });
    }
    return toRequest(row, account.timeZone);
  }

  async list(account: Account, query: SubscriberRequestListQuery): Promise<SubscriberRequest[]> {
    const { fromMs, toMs } = resolvePeriod(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone, this.clock());
    const rows = await listRequests(this.database.db, account.id, {
      fromMs,
      toMs,
      subscriberIds: query.subscriberIDs,
      count: query.count ?? 1000,
      offset: query.offset ?? 0,
    });
    return rows.map((row) => toRequest(row, account.timeZone));
  }

  async get(account: Account, requestID: number): Promise<SubscriberRequest> {
    const row = await findRequest(this.database.db, account.id, requestID);
    if (!row) throw new ApiError('SUBSCRIBER_REQUEST_NOT_FOUND', `no subscriber request ${requestID}`);
    return toRequest(row, account.timeZone);
  }

}

function toRequest(row: RequestRow, timeZone: string): SubscriberRequest {
  return {
    requestID: row.id,
    subscriberID: row.subscriber_id,
    requestDate: formatDateTime(row.requested_at, timeZone),
    resultCode: row.result_code,
    resultDescription: names[row.result_code] ?? 'UNKNOWN',
    message: row.message,
    locationID: row.location_id,
  };
}
