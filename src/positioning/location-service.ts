import type { Account, AccountService } from '../accounts/accounts.js';
import type { EmployeeService } from '../employees/employees.js';
import { formatDateTime, parseDateTime } from '../http/datetime.js';
import { ApiError, invalidField, type ValidationErrors } from '../http/errors.js';
import { resolvePeriod } from '../http/list-params.js';
import type { Metrics } from '../http/observability.js';
import type { Database } from '../store/database.js';
import type { AddressResolver } from './address-resolver.js';
import type { Fix } from './fix.js';
import type { Location, LocationInput, LocationListQuery } from './location-schema.js';
import type { PipelineSignals } from './pipeline/pipeline-signals.js';
import { PipelineRunner } from './pipeline/pipeline-runner.js';
import { latestFixes } from './location-store.js';
import { PipelineStore } from './pipeline/pipeline-store.js';
import { trackSettingsOf } from './pipeline/pipeline-types.js';

/** A fix dated further ahead than this is a broken clock, not a position. */
const MAX_FUTURE_MS = 24 * 3_600_000;
const MAX_LISTED_ERRORS = 20;

export type FixSource = 'api' | 'osmand';

/** Told of every committed batch (the workspace's live map); never part of the transaction. */
export type CommittedFixesListener = (account: Account, fixes: readonly Fix[]) => void;

export class LocationService {
  private readonly pipeline: PipelineRunner;
  private readonly committedListeners = new Set<CommittedFixesListener>();

  constructor(
    private readonly database: Database,
    private readonly accounts: AccountService,
    private readonly employees: EmployeeService,
    private readonly metrics: Metrics,
    addresses: AddressResolver,
    private readonly clock: () => number = Date.now,
    signals: PipelineSignals | null = null,
  ) {
    this.pipeline = new PipelineRunner(new PipelineStore(database), addresses, signals);
  }

  /**
   * A batch from the ingestion route: all or nothing (CONTRACT §6). Bad items and fixes of
   * unknown employees are named by index; nothing is stored unless every item is good.
   */
  async ingestBatch(account: Account, inputs: LocationInput[]): Promise<number> {
    const now = this.clock();
    const problems: ValidationErrors = {};
    const fixes: Fix[] = [];
    inputs.forEach((input, index) => {
      const locationDateMs = parseDateTime(input.locationDate, account.timeZone)?.epochMs;
      if (locationDateMs === undefined) {
        problems[`[${index}].locationDate`] = 'must be an ISO 8601 date-time';
      } else if (locationDateMs > now + MAX_FUTURE_MS) {
        problems[`[${index}].locationDate`] = 'is more than 24 hours in the future';
      } else {
        fixes.push(toFix(input, locationDateMs));
      }
    });
    throwIfAny(problems, 'BAD_REQUEST', 'the batch has invalid locations; nothing was stored');
    await this.persist(account, fixes, 'api', now);
    return fixes.length;
  }

  /** One fix from a phone or tracker whose device key has already been resolved to its employee. */
  async ingestDeviceFix(accountId: number, fix: Fix): Promise<void> {
    const account = await this.accounts.get(accountId);
    if (!account) throw new ApiError('NO_SUCH_SUBSCRIBER', 'unknown device');
    await this.persist(account, [fix], 'osmand', this.clock());
  }

  /** Stores the fixes and runs the pipeline in one transaction; answered only after it committed. */
  private async persist(account: Account, fixes: Fix[], source: FixSource, receivedAt: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      const ids = [...new Set(fixes.map((f) => f.subscriberId))];
      const targets = await this.employees.ingestTargetsOf(tx, account.id, ids);
      const vehicleSettings = new Map([...targets].map(([id, target]) => [id, target.vehicleSettings]));
      const problems: ValidationErrors = {};
      fixes.forEach((fix, index) => {
        if (!vehicleSettings.has(fix.subscriberId)) problems[`[${index}].subscriberID`] = `no subscriber ${fix.subscriberId}`;
      });
      throwIfAny(problems, 'NO_SUCH_SUBSCRIBER', 'the batch names unknown subscribers; nothing was stored');
      await this.pipeline.ingest(tx, { accountId: account.id, timeZone: account.timeZone, receivedAt, trackSettings: trackSettingsOf(account.settings.track), vehicleSettings }, fixes);
      // isOnline turns true when fixes start arriving (an employee change event, in this transaction).
      await this.employees.fixesArrived(tx, account, targets, receivedAt);
    });
    this.metrics.fixesIngested.inc({ source }, fixes.length);
    for (const listener of this.committedListeners) listener(account, fixes);
  }

  /** Calls `listener` after each committed batch, in this process; returns the way to stop. */
  onCommitted(listener: CommittedFixesListener): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  async list(account: Account, query: LocationListQuery): Promise<Location[]> {
    const period = resolvePeriod(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone, this.clock());
    let select = this.database.db
      .selectFrom('locations')
      .select(['id', 'subscriber_id', 'location_date', 'is_valid', 'latitude', 'longitude', 'angle', 'velocity'])
      .where('account_id', '=', account.id)
      .where('location_date', '>=', period.fromMs)
      .where('location_date', '<=', period.toMs);
    if (query.subscriberIDs?.length) select = select.where('subscriber_id', 'in', query.subscriberIDs);
    // Newest first; a client pages by passing the last id it saw (CONTRACT §1, real API).
    if (query.lastLocationID !== undefined) select = select.where('id', '<', query.lastLocationID);
    const rows = await select.orderBy('id', 'desc').limit(query.count ?? 1000).execute();
    return rows.map((row) => toLocation(row, account.timeZone));
  }

  async get(account: Account, locationID: number): Promise<Location> {
    const row = await this.database.db
      .selectFrom('locations')
      .select(['id', 'subscriber_id', 'location_date', 'is_valid', 'latitude', 'longitude', 'angle', 'velocity'])
      .where('account_id', '=', account.id)
      .where('id', '=', locationID)
      .executeTakeFirst();
    if (!row) throw new ApiError('LOCATION_NOT_FOUND', `no location ${locationID}`);
    return toLocation(row, account.timeZone);
  }

  /** The latest fix (by its time) of each living employee of the account, or of those named. */
  async latestOfEach(account: Account, subscriberIDs: number[] | undefined): Promise<Location[]> {
    const living = await this.employees.livingIds(this.database.db, account.id, subscriberIDs);
    const rows = await latestFixes(this.database, this.database.db, account.id, living);
    return rows.map((row) => toLocation(row, account.timeZone));
  }
}

function throwIfAny(problems: ValidationErrors, kind: 'BAD_REQUEST' | 'NO_SUCH_SUBSCRIBER', message: string): void {
  const fields = Object.keys(problems);
  if (fields.length === 0) return;
  const listed = Object.fromEntries(fields.slice(0, MAX_LISTED_ERRORS).map((f) => [f, problems[f]!]));
  if (kind === 'BAD_REQUEST' && fields.length === 1) {
    const [field] = fields as [string];
    throw invalidField(field, problems[field]!);
  }
  throw new ApiError(kind, message, listed);
}

function toFix(input: LocationInput, locationDateMs: number): Fix {
  return {
    subscriberId: input.subscriberID,
    locationDateMs,
    isValid: input.isValid ?? true,
    latitude: input.latitude,
    longitude: input.longitude,
    angle: input.angle ?? 0,
    velocityKmh: input.velocity ?? 0,
    fuelLevel: input.fuelLevel ?? null,
    ignition: input.ignition ?? null,
    externalPower: input.externalPower ?? null,
    odometer: input.odometer ?? null,
    engineHours: input.engineHours ?? null,
    sensors: input.sensors ?? null,
  };
}

type SelectedRow = {
  id: number;
  subscriber_id: number;
  location_date: number;
  is_valid: number;
  latitude: number;
  longitude: number;
  angle: number;
  velocity: number;
};

export function toLocation(row: SelectedRow, timeZone: string): Location {
  return {
    locationDate: formatDateTime(row.location_date, timeZone),
    subscriberID: row.subscriber_id,
    locationID: row.id,
    isValid: row.is_valid === 1,
    longitude: row.longitude,
    latitude: row.latitude,
    angle: row.angle,
    velocity: row.velocity,
  };
}
