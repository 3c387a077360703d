import type { Account, AccountReader } from '../accounts/accounts.js';
import type { EmployeeDevices, EmployeeDirectory } from '../employees/employees.js';
import { formatDateTime, parseDateTime } from '../http/datetime.js';
import { ApiError, invalidField, type ValidationErrors } from '../http/errors.js';
import { resolvePeriod } from '../http/list-params.js';
import type { Metrics } from '../http/observability.js';
import type { Database } from '../store/database.js';
import type { AddressResolver } from './address-resolver.js';
import type { Fix } from './fix.js';
import { FixIngest, type CommittedFixesListener } from './fix-ingest.js';
import type { IngestPort } from './ingest-port.js';
import type { AppLocationInput, Location, LocationInput, LocationListQuery } from './location-schema.js';
import type { PipelineSignals } from './pipeline/pipeline-signals.js';
import { PipelineRunner } from './pipeline/pipeline-runner.js';
import { findLocation, latestFixes, listLocations, type LocationRow } from './location-store.js';
import { PipelineStore } from './pipeline/pipeline-store.js';

/** A fix dated further ahead than this is a broken clock, not a position. */
const MAX_FUTURE_MS = 24 * 3_600_000;
const MAX_LISTED_ERRORS = 20;

export { UnknownDevice, type CommittedFixesListener } from './fix-ingest.js';

/** CONTRACT §2: fixes dated longer than this before their arrival are history and fire no signal. */
export const DEFAULT_SIGNAL_MAX_AGE_MS = 12 * 3_600_000;

export interface LocationServiceOptions {
  database: Database;
  /** The account of each frame's fixes (cached). */
  accounts: Pick<AccountReader, 'getCached'>;
  /** The owners of device keys, their presence, and which employees are living. */
  employees: EmployeeDevices & Pick<EmployeeDirectory, 'livingIds'>;
  metrics: Metrics;
  /** Track addresses, and the zones of zone visits. */
  addresses: AddressResolver;
  clock?: () => number;
  /** What batches of fixes fire; none: nothing fires. */
  signals?: PipelineSignals | null;
  /** SIGNAL_MAX_AGE */
  signalMaxAgeMs?: number;
}

export class LocationService {
  /** The ingest port every device path and the ingestion route store fixes through (group commit). */
  readonly ingest: IngestPort;
  private readonly fixIngest: FixIngest;
  private readonly database: Database;
  private readonly employees: EmployeeDevices & Pick<EmployeeDirectory, 'livingIds'>;
  private readonly clock: () => number;

  constructor(options: LocationServiceOptions) {
    const { database, accounts, employees, metrics, addresses, clock = Date.now } = options;
    this.database = database;
    this.employees = employees;
    this.clock = clock;
    const pipeline = new PipelineRunner({
      store: new PipelineStore(database),
      addresses,
      signals: options.signals,
      signalMaxAgeMs: options.signalMaxAgeMs ?? DEFAULT_SIGNAL_MAX_AGE_MS,
      zones: addresses.zones,
    });
    this.fixIngest = new FixIngest({ database, accounts, employees, metrics, pipeline, clock });
    this.ingest = this.fixIngest;
  }

  /**
   * A batch from the ingestion route: all or nothing (CONTRACT §6). Bad items and fixes of
   * unknown employees are named by index; nothing is stored unless every item is good. The batch
   * is one frame of the ingest port, answered once its commit is durable.
   */
  /**
   * Fixes the employee's app took with the browser's geolocation (`POST /mobile/v1/locations`),
   * all the device key's employee's: through the same ingest port as every device path, answered
   * once durable. A fix more than 24 h ahead of the server is refused, naming it.
   */
  async ingestFromApp(account: Account, subscriberID: number, inputs: AppLocationInput[]): Promise<number> {
    const now = this.clock();
    const problems: ValidationErrors = {};
    const fixes: Fix[] = [];
    inputs.forEach((input, index) => {
      const locationDateMs = parseDateTime(input.locationDate, account.timeZone)?.epochMs;
      if (locationDateMs === undefined) problems[`[${index}].locationDate`] = 'must be an ISO 8601 date-time';
      else if (locationDateMs > now + MAX_FUTURE_MS) problems[`[${index}].locationDate`] = 'is more than 24 hours in the future';
      else {
        fixes.push({
          ...toFix({ ...input, subscriberID }, locationDateMs),
          // The browser's coords.accuracy: 0 or less says it does not know.
          accuracyM: input.accuracy !== undefined && input.accuracy > 0 ? input.accuracy : null,
        });
      }
    });
    throwIfAny(problems, 'BAD_REQUEST', 'the batch has invalid locations; nothing was stored');
    await this.ingest.durable(await this.ingest.submit({ source: 'app', accountId: account.id, fixes }));
    return fixes.length;
  }

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
    const unknown = (subscriberIds: ReadonlySet<number>) => {
      const named: ValidationErrors = {};
      fixes.forEach((fix, index) => {
        if (subscriberIds.has(fix.subscriberId)) named[`[${index}].subscriberID`] = `no subscriber ${fix.subscriberId}`;
      });
      return unknownSubscribers(named);
    };
    await this.ingest.durable(await this.ingest.submit({ source: 'api', accountId: account.id, fixes, unknown }));
    return fixes.length;
  }

  /** Calls `listener` after each committed batch, in this process; returns the way to stop. */
  onCommitted(listener: CommittedFixesListener): () => void {
    return this.fixIngest.onCommitted(listener);
  }

  async list(account: Account, query: LocationListQuery): Promise<Location[]> {
    return (await this.listRows(account, query)).map((row) => toLocation(row, account.timeZone));
  }

  /** The stored rows of `list`; `offset` (the mobile positioning list's) skips that many after the other filters. */
  async listRows(account: Account, query: LocationListQuery & { offset?: number }): Promise<LocationRow[]> {
    const period = resolvePeriod(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone, this.clock());
    // Newest first; a client pages by passing the last id it saw (CONTRACT §1, real API).
    return listLocations(this.database.db, account.id, {
      fromMs: period.fromMs,
      toMs: period.toMs,
      subscriberIds: query.subscriberIDs,
      beforeId: query.lastLocationID,
      count: query.count ?? 1000,
      offset: query.offset ?? 0,
    });
  }

  async get(account: Account, locationID: number): Promise<Location> {
    return toLocation(await this.getRow(account, locationID), account.timeZone);
  }

  /** The stored row of `get` (404 code 1001 when the account has no such fix). */
  async getRow(account: Account, locationID: number): Promise<LocationRow> {
    const row = await findLocation(this.database.db, account.id, locationID);
    if (!row) throw new ApiError('LOCATION_NOT_FOUND', `no location ${locationID}`);
    return row;
  }

  /** The latest fix (by its time) of each living employee of the account, or of those named. */
  async latestOfEach(account: Account, subscriberIDs: number[] | undefined): Promise<Location[]> {
    const living = await this.employees.livingIds(this.database.db, account.id, subscriberIDs);
    const rows = await latestFixes(this.database, this.database.db, account.id, living);
    return rows.map((row) => toLocation(row, account.timeZone));
  }
}

function listed(problems: ValidationErrors): ValidationErrors {
  return Object.fromEntries(Object.keys(problems).slice(0, MAX_LISTED_ERRORS).map((f) => [f, problems[f]!]));
}

function throwIfAny(problems: ValidationErrors, kind: 'BAD_REQUEST', message: string): void {
  const fields = Object.keys(problems);
  if (fields.length === 0) return;
  if (fields.length === 1) {
    const [field] = fields as [string];
    throw invalidField(field, problems[field]!);
  }
  throw new ApiError(kind, message, listed(problems));
}

function unknownSubscribers(problems: ValidationErrors): ApiError {
  return new ApiError('NO_SUCH_SUBSCRIBER', 'the batch names unknown subscribers; nothing was stored', listed(problems));
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
