import type { Account } from '../accounts/accounts.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import { resolvePeriod, type Period } from '../http/list-params.js';
import type { ReportData } from '../positioning/positioning.js';
import type { Database } from '../store/database.js';
import type { ReportSources } from './kinds/report-kind.js';
import { reportKindOf, type ReportKind, type ReportRecord } from './kinds/report-kinds.js';
import { checkReportPeriod, pageOf, reportChunks } from './report-chunks.js';
import type { Page, ReportAnswer, ReportQuery, ReportRow } from './report-schema.js';

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
 * The reports (kinds/report-kinds.ts), made of what the pipeline keeps: tracks, vehicle events, the statistics
 * buckets and zone visits, read through positioning's face. Each figure is one the v6 routes give
 * (a trip is a track of route 3, a filling an event of route 6, a day's mileage is route 7's).
 */
export class ReportService {
  private readonly database: Database;
  private readonly employees: ReportEmployees;
  private readonly clock: () => number;
  private readonly sources: ReportSources;

  constructor(options: { database: Database; employees: ReportEmployees; data: ReportData; clock?: () => number }) {
    const { database, employees, data } = options;
    this.database = database;
    this.employees = employees;
    this.clock = options.clock ?? Date.now;
    this.sources = { data, vehicleSettingsOf: (accountId, ids) => employees.vehicleSettingsOf(database.db, accountId, ids) };
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
   * The records of a report, in order (by employee, then time); `page` cuts a run of them. A
   * report that seeks its page in the store does (trips, zone visits, the daily reports); the
   * others are read chunk by chunk up to the page's end.
   */
  async rows(account: Account, request: ReportRequest, ids: number[], page: Page | null): Promise<ReportRow<ReportRecord>[]> {
    const definition = reportKindOf(request.kind)!;
    if (definition.readPage) return definition.readPage(this.sources, account, ids, request.period, page);
    return pageOf(this.stream(account, request, ids), page);
  }

  /**
   * The whole report chunk by chunk (report-chunks.ts), in order: what the files are written from,
   * in bounded memory and with a turn of the event loop between chunks. `vehicleDays` sizes the
   * chunks (the report's own by default); the result does not depend on it.
   */
  stream(account: Account, request: ReportRequest, ids: number[], vehicleDays?: number): AsyncGenerator<ReportRow<ReportRecord>[]> {
    const definition = reportKindOf(request.kind)!;
    const chunks = reportChunks(request.period, ids, account.timeZone, vehicleDays ?? definition.chunkVehicleDays);
    return definition.stream(this.sources, account, chunks, request.period);
  }

  /** A page of a report in JSON: records grouped per employee (route 6's shape). */
  async answer(account: Account, kind: ReportKind, query: ReportQuery): Promise<ReportAnswer<ReportRecord>> {
    const period = this.period(account, query);
    const ids = await this.chosenIds(account, query.subscriberIDs, query.subscriberGroupIDs);
    const rows = await this.rows(account, { kind, period }, ids, { limit: query.count ?? 1000, offset: query.offset ?? 0 });
    const data: ReportAnswer<ReportRecord>['data'] = [];
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
