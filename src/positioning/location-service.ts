import type { Account, AccountReader } from '../accounts/accounts.js';
import type { EmployeeDevices, EmployeeDirectory, IngestTarget } from '../employees/employees.js';
import { formatDateTime, parseDateTime } from '../http/datetime.js';
import { ApiError, invalidField, type ValidationErrors } from '../http/errors.js';
import { resolvePeriod } from '../http/list-params.js';
import type { Metrics } from '../http/observability.js';
import type { Database, Tx } from '../store/database.js';
import type { AddressResolver } from './address-resolver.js';
import type { Fix } from './fix.js';
import { IngestQueue, type FixSource, type Frame } from './ingest-queue.js';
import type { Location, LocationInput, LocationListQuery } from './location-schema.js';
import type { PipelineSignals } from './pipeline/pipeline-signals.js';
import { PipelineRunner } from './pipeline/pipeline-runner.js';
import { findLocation, latestFixes, listLocations, type LocationRow } from './location-store.js';
import { PipelineStore } from './pipeline/pipeline-store.js';
import { gpsFilterSettingsOf } from './pipeline/fix-filter.js';
import { trackSettingsOf } from './pipeline/pipeline-types.js';

/** A fix dated further ahead than this is a broken clock, not a position. */
const MAX_FUTURE_MS = 24 * 3_600_000;
const MAX_LISTED_ERRORS = 20;
/** Group transactions running at once on PostgreSQL (of the pool's 10 connections). */
const POSTGRES_INGEST_LANES = 4;

export type { FixSource } from './ingest-queue.js';

/** Told of every committed batch (the workspace's live map); never part of the transaction. */
export type CommittedFixesListener = (account: Account, fixes: readonly Fix[]) => void;

/** CONTRACT §2: fixes dated longer than this before their arrival are history and fire no signal. */
export const DEFAULT_SIGNAL_MAX_AGE_MS = 12 * 3_600_000;

/** A device key no living employee has (400, like Traccar: the client logs it and does not retry for ever). */
export class UnknownDevice extends ApiError {
  constructor() {
    super('BAD_REQUEST', 'unknown device');
  }
}
const unknownDevice = () => new UnknownDevice();

export class LocationService {
  private readonly pipeline: PipelineRunner;
  private readonly committedListeners = new Set<CommittedFixesListener>();
  /** The device paths' group commit (DESIGN): one queue per process. */
  private readonly queue: IngestQueue;

  constructor(
    private readonly database: Database,
    private readonly accounts: Pick<AccountReader, 'getCached'>,
    private readonly employees: EmployeeDevices & Pick<EmployeeDirectory, 'livingIds'>,
    private readonly metrics: Metrics,
    addresses: AddressResolver,
    private readonly clock: () => number = Date.now,
    signals: PipelineSignals | null = null,
    signalMaxAgeMs = DEFAULT_SIGNAL_MAX_AGE_MS,
  ) {
    this.pipeline = new PipelineRunner(new PipelineStore(database), addresses, signals, signalMaxAgeMs, addresses.zones);
    // SQLite has one writer; PostgreSQL overlaps a few groups' round trips and commits.
    this.queue = new IngestQueue((frames) => this.commitGroup(frames), database.dialect === 'postgres' ? POSTGRES_INGEST_LANES : 1);
  }

  /**
   * A batch from the ingestion route: all or nothing (CONTRACT §6). Bad items and fixes of
   * unknown employees are named by index; nothing is stored unless every item is good. A single
   * fix joins the device paths' group commit, with the same answers.
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
    if (fixes.length === 1) {
      const { subscriberId } = fixes[0]!;
      const unknown = () => unknownSubscribers({ '[0].subscriberID': `no subscriber ${subscriberId}` });
      await this.queue.submit({ accountId: account.id, fixes, source: 'api', unknown });
      return 1;
    }
    await this.persist(account, fixes, now);
    return fixes.length;
  }

  /**
   * A frame of a device listener (a tracker's frame may hold several fixes), its employees
   * already resolved: committed with whatever else arrived meanwhile; resolves after the commit.
   */
  ingest(accountId: number, fixes: Fix[], source: FixSource = 'tracker'): Promise<void> {
    return this.queue.submit({ accountId, fixes, source, unknown: unknownDevice });
  }

  /**
   * `ingest`, resolved as soon as the fixes' commit is visible, with its number: the caller
   * acknowledges the frame only once `durabilityChannel` says that commit is on disk.
   */
  ingestVisible(accountId: number, fixes: Fix[], source: FixSource = 'tracker'): Promise<number> {
    return this.queue.submitVisible({ accountId, fixes, source, unknown: unknownDevice });
  }

  /**
   * One fix sent with a device key (the OsmAnd listener): its owner comes from the employees'
   * cache, checked in the transaction; a key found stale there is looked up afresh once.
   * Unknown key → 400 `unknown device`. Resolves once the fix is committed, as soon as the commit
   * is visible, with the commit's number: the caller acknowledges the fix only once
   * `durabilityChannel` says that commit is on disk.
   */
  async ingestDeviceFix(deviceKey: string, fix: Omit<Fix, 'subscriberId'>): Promise<number> {
    const submit = (owner: { accountId: number; subscriberId: number }) =>
      this.queue.submitVisible({ accountId: owner.accountId, fixes: [{ ...fix, subscriberId: owner.subscriberId }], deviceKey, source: 'osmand', unknown: unknownDevice });
    const cached = await this.employees.findByDeviceKeyCached(deviceKey);
    if (!cached) throw unknownDevice();
    try {
      return await submit(cached);
    } catch (error) {
      // Refused in the transaction: the key may have moved to another employee since it was cached.
      if (!(error instanceof ApiError) || error.kind !== 'BAD_REQUEST') throw error;
      this.employees.forgetDeviceKey(deviceKey);
    }
    const owner = await this.employees.findByDeviceKey(deviceKey);
    if (!owner) throw unknownDevice();
    return submit(owner);
  }

  /**
   * The BroadcastChannel on which the database announces the commits now on disk (see
   * `ingestDeviceFix`), or null where a commit is durable once it returns.
   */
  get durabilityChannel(): string | null {
    return this.database.durabilityChannel;
  }

  /** A batch in its own transaction, all or nothing; answered only after it committed. */
  private async persist(account: Account, fixes: Fix[], receivedAt: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      const targets = await this.employees.ingestTargetsOf(tx, account.id, [...new Set(fixes.map((f) => f.subscriberId))]);
      const problems: ValidationErrors = {};
      fixes.forEach((fix, index) => {
        if (!targets.has(fix.subscriberId)) problems[`[${index}].subscriberID`] = `no subscriber ${fix.subscriberId}`;
      });
      if (Object.keys(problems).length > 0) throw unknownSubscribers(problems);
      await this.run(tx, account, fixes, null, targets, receivedAt);
    });
    this.committed(account, fixes, 'api');
  }

  /**
   * The queue's transaction: the frames of each account in turn, in one transaction. A frame
   * naming an employee that is gone (or a device key that is no longer the employee's) is refused
   * before anything of it is written; the others go on.
   */
  private async commitGroup(frames: Frame[]): Promise<{ refused: Map<Frame, Error>; durable: Promise<void>; commit: number }> {
    const receivedAt = this.clock();
    const refused = new Map<Frame, Error>();
    const byAccount = new Map<number, Frame[]>();
    for (const frame of frames) {
      const list = byAccount.get(frame.accountId);
      if (list) list.push(frame);
      else byAccount.set(frame.accountId, [frame]);
    }
    const accounts: [Account, Frame[]][] = [];
    const accountOf = new Map<number, Account>();
    for (const [accountId, list] of byAccount) {
      const account = await this.accounts.getCached(accountId);
      if (account) {
        accounts.push([account, list]);
        accountOf.set(accountId, account);
      }
      else for (const frame of list) refused.set(frame, frame.unknown());
    }
    const committed: Frame[] = [];
    const { durable, commit } = await this.database.visibleTransaction(async (tx) => {
      for (const [account, list] of accounts) {
        const targets = await this.employees.ingestTargetsOf(tx, account.id, [...new Set(list.flatMap((f) => f.fixes.map((fix) => fix.subscriberId)))]);
        const kept = list.filter((frame) => {
          const known = frame.fixes.every((fix) => {
            const target = targets.get(fix.subscriberId);
            return target !== undefined && (frame.deviceKey === undefined || target.deviceKey === frame.deviceKey);
          });
          if (!known) refused.set(frame, frame.unknown());
          return known;
        });
        if (kept.length === 0) continue;
        const fixes = kept.flatMap((frame) => frame.fixes);
        const frameOf = kept.flatMap((frame, index) => frame.fixes.map(() => index));
        const used = new Map(fixes.map((fix) => [fix.subscriberId, targets.get(fix.subscriberId)!]));
        await this.run(tx, account, fixes, frameOf, used, receivedAt);
        committed.push(...kept);
      }
    });
    void durable.then(() => {
      for (const frame of committed) this.committed(accountOf.get(frame.accountId)!, frame.fixes, frame.source);
    }, () => {});
    return { refused, durable, commit };
  }

  /** The pipeline and isOnline for fixes of known employees, in the caller's transaction. */
  private async run(tx: Tx, account: Account, fixes: Fix[], frameOf: number[] | null, targets: Map<number, IngestTarget>, receivedAt: number): Promise<void> {
    const vehicleSettings = new Map([...targets].map(([id, target]) => [id, target.vehicleSettings]));
    await this.pipeline.ingest(tx, { accountId: account.id, timeZone: account.timeZone, receivedAt, trackSettings: trackSettingsOf(account.settings.track), filterSettings: gpsFilterSettingsOf(account.settings.gpsFilter), vehicleSettings }, fixes, frameOf);
    // isOnline turns true when current fixes start arriving (an employee change event, in this transaction).
    const newestFixMs = new Map<number, number>();
    for (const fix of fixes) newestFixMs.set(fix.subscriberId, Math.max(fix.locationDateMs, newestFixMs.get(fix.subscriberId) ?? fix.locationDateMs));
    await this.employees.fixesArrived(tx, account, targets, newestFixMs, receivedAt);
  }

  private committed(account: Account, fixes: Fix[], source: FixSource): void {
    this.metrics.fixesIngested.inc({ source }, fixes.length);
    for (const listener of this.committedListeners) listener(account, fixes);
  }

  /** Calls `listener` after each committed batch, in this process; returns the way to stop. */
  onCommitted(listener: CommittedFixesListener): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
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
