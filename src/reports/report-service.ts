import type { Account } from '../accounts/accounts.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import { resolvePeriod, type Period } from '../http/list-params.js';
import type { ReportData } from '../positioning/positioning.js';
import type { Database } from '../store/database.js';
import { fuelRows, summaryRows } from './daily-report.js';
import { speedingChunks, zoneVisitChunkRows, zoneVisitRows } from './event-report.js';
import { checkReportPeriod, chunkedRows, CHUNK_VEHICLE_DAYS, pageOf, reportChunks } from './report-chunks.js';
import type { ReportAnswer, ReportKind, ReportQuery, ReportRow } from './report-schema.js';
import { stopChunks, tripChunkRows, tripRows, type Page } from './trip-report.js';

/** What reports read of employees: who is chosen, their names and vehicle settings. */
export type ReportEmployees = Pick<EmployeeDirectory, 'list' | 'livingIds' | 'identitiesOf' | 'vehicleSettingsOf'>;

/** Whose report: the employees chosen, with their names. */
export interface ReportSubjects {
  ids: number[];
  names: Map<number, string>;
}

/** What a report is asked for, once resolved: the same for the routes and the schedules. */
export interface ReportRequest {
  kind: ReportKind;
  period: Period;
  subscriberIDs?: number[];
  subscriberGroupIDs?: number[];
}

/**
 * The reports (issue 17), made of what the pipeline keeps: tracks, vehicle events, the statistics
 * buckets and zone visits, read through positioning's face. Each figure is one the v6 routes give
 * (a trip is a track of route 3, a filling an event of route 6, a day's mileage is route 7's).
 */
export class ReportService {
  private readonly database: Database;
  private readonly employees: ReportEmployees;
  private readonly data: ReportData;
  private readonly clock: () => number;

  constructor(options: { database: Database; employees: ReportEmployees; data: ReportData; clock?: () => number }) {
    this.database = options.database;
    this.employees = options.employees;
    this.data = options.data;
    this.clock = options.clock ?? Date.now;
  }

  /**
   * The request's period (CONTRACT §1: the account's zone, 72 hours before dateTo by default), at
   * most `MAX_REPORT_DAYS` long.
   */
  period(account: Account, query: ReportQuery): Period {
    const period = resolvePeriod(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone, this.clock());
    checkReportPeriod(period, { dateTo: query.dateTo !== undefined });
    return period;
  }

  /**
   * The account's living employees among `subscriberIDs` or in `subscriberGroupIDs` (either
   * counts), all of them when both are empty; ids of other accounts are none of them.
   */
  async chosenIds(account: Account, subscriberIDs: readonly number[] = [], subscriberGroupIDs: readonly number[] = []): Promise<number[]> {
    const db = this.database.db;
    const all = subscriberIDs.length === 0 && subscriberGroupIDs.length === 0;
    // Ids first (an indexed read, not the employees' documents): every JSON page asks again.
    const chosen = new Set(all ? await this.employees.livingIds(db, account.id) : subscriberIDs.length ? await this.employees.livingIds(db, account.id, subscriberIDs) : []);
    if (subscriberGroupIDs.length) {
      for (const e of await this.employees.list(account, { subscriberGroupIDs: [...subscriberGroupIDs], withCustomTemplateItems: false })) chosen.add(e.subscriberID);
    }
    return [...chosen].sort((a, b) => a - b);
  }

  /** The chosen employees with their names (a file names every one of them). */
  async subjects(account: Account, subscriberIDs: readonly number[] = [], subscriberGroupIDs: readonly number[] = []): Promise<ReportSubjects> {
    const ids = await this.chosenIds(account, subscriberIDs, subscriberGroupIDs);
    return { ids, names: await this.names(account, ids) };
  }

  private async names(account: Account, ids: number[]): Promise<Map<number, string>> {
    const identities = await this.employees.identitiesOf(this.database.db, account.id, ids);
    return new Map(ids.map((id) => [id, identities.get(id)?.name ?? '']));
  }

  /**
   * The records of a report, in order (by employee, then time); `page` cuts a run of them. Trips,
   * zone visits and the daily reports seek their page in the store; stops and speeding are read
   * chunk by chunk up to the page's end.
   */
  async rows(account: Account, request: ReportRequest, ids: number[], page: Page | null): Promise<ReportRow<ReportKind>[]> {
    const { period } = request;
    switch (request.kind) {
      case 'trips':
        return tripRows(this.data, account, ids, period, page);
      case 'fuel':
        return fuelRows(this.data, account, ids, period, page);
      case 'zoneVisits':
        return zoneVisitRows(this.data, account, ids, period, page);
      case 'summary':
        return summaryRows(this.data, account, ids, period, page);
      case 'stops':
      case 'speeding':
        return pageOf(this.stream(account, request, ids), page);
    }
  }

  /**
   * The whole report chunk by chunk (report-chunks.ts), in order: what the files are written from,
   * in bounded memory and with a turn of the event loop between chunks. `vehicleDays` sizes the
   * chunks; the result does not depend on it.
   */
  stream(account: Account, request: ReportRequest, ids: number[], vehicleDays = CHUNK_VEHICLE_DAYS[request.kind]): AsyncGenerator<ReportRow<ReportKind>[]> {
    const { period } = request;
    const chunks = reportChunks(period, ids, account.timeZone, vehicleDays);
    switch (request.kind) {
      case 'trips':
        return chunkedRows(chunks, (chunk) => tripChunkRows(this.data, account, chunk));
      case 'stops':
        return stopChunks(this.data, account, chunks, period);
      case 'fuel':
        return chunkedRows(chunks, (chunk) => fuelRows(this.data, account, chunk.ids, chunk, null));
      case 'zoneVisits':
        return chunkedRows(chunks, (chunk) => zoneVisitChunkRows(this.data, account, chunk));
      case 'speeding':
        return speedingChunks(this.data, account, chunks, (chunkIds) => this.employees.vehicleSettingsOf(this.database.db, account.id, chunkIds));
      case 'summary':
        return chunkedRows(chunks, (chunk) => summaryRows(this.data, account, chunk.ids, chunk, null));
    }
  }

  /** A page of a report in JSON: records grouped per employee (route 6's shape). */
  async answer(account: Account, kind: ReportKind, query: ReportQuery): Promise<ReportAnswer<ReportKind>> {
    const period = this.period(account, query);
    const ids = await this.chosenIds(account, query.subscriberIDs, query.subscriberGroupIDs);
    const rows = await this.rows(account, { kind, period }, ids, { limit: query.count ?? 1000, offset: query.offset ?? 0 });
    const data: ReportAnswer<ReportKind>['data'] = [];
    for (const { subscriberId, record } of rows) {
      const last = data.at(-1);
      if (last?.subscriberID === subscriberId) last.records.push(record);
      else data.push({ subscriberID: subscriberId, name: '', records: [record] });
    }
    // Names of the page's employees only: a page holds a few of a fleet's hundreds.
    const names = await this.names(account, data.map((group) => group.subscriberID));
    for (const group of data) group.name = names.get(group.subscriberID) ?? '';
    return { data };
  }
}
