import type { Account } from '../accounts/accounts.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import { formatDateTime } from '../http/datetime.js';
import { invalidField } from '../http/errors.js';
import { resolvePeriod } from '../http/list-params.js';
import type { Database } from '../store/database.js';
import { validFixesBetween } from './location-store.js';
import { TRACK_FILE_TYPES, writeGpx, writeKml, type ExportedEmployee, type TrackFileFormat } from './track-export.js';
import type { TrackExportQuery } from './track-schema.js';
import type { TrackService } from './track-service.js';

/** A month of one vehicle's fixes every few seconds is already a file of tens of megabytes. */
export const MAX_EXPORT_DAYS = 31;
const DAY_MS = 86_400_000;
const TRACK_PAGE = 1000;

export interface TrackFileAnswer {
  fileName: string;
  contentType: string;
  body: string;
}

/** The tracks of some employees over a period as a GPX or KML file. */
export class TrackExportService {
  constructor(
    private readonly database: Database,
    private readonly tracks: TrackService,
    private readonly employees: Pick<EmployeeDirectory, 'get'>,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Each employee's tracks overlapping the period, each cut to the period: the valid fixes a map
   * draws. An employee of another account is 404, as everywhere (checked before anything is read).
   */
  async file(account: Account, query: TrackExportQuery): Promise<TrackFileAnswer> {
    const period = resolvePeriod(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone, this.clock());
    if (period.toMs - period.fromMs > MAX_EXPORT_DAYS * DAY_MS) throw invalidField('dateTo', `the period must be at most ${MAX_EXPORT_DAYS} days long`);
    const ids = [...new Set(query.subscriberIDs)];
    const names = new Map<number, string>();
    for (const id of ids) names.set(id, (await this.employees.get(account, id)).name);

    const exported: ExportedEmployee[] = [];
    for (const id of ids) {
      const runs = [];
      for (const track of await this.tracksOf(account, id, period)) {
        const fromMs = Math.max(Date.parse(track.startDate), period.fromMs);
        const toMs = Math.min(Date.parse(track.finishDate), period.toMs);
        const rows = await validFixesBetween(this.database.db, account.id, id, fromMs, toMs);
        if (rows.length > 0) runs.push(rows.map((row) => ({ timeMs: row.location_date, latitude: row.latitude, longitude: row.longitude })));
      }
      exported.push({ subscriberID: id, name: names.get(id) ?? String(id), tracks: runs });
    }

    const from = formatDateTime(period.fromMs, account.timeZone);
    const to = formatDateTime(period.toMs, account.timeZone);
    const title = `${exported.map((e) => e.name).join(', ')}: ${from} – ${to}`;
    const format: TrackFileFormat = query.format;
    const body = format === 'gpx' ? writeGpx({ title, employees: exported }, this.clock()) : writeKml({ title, employees: exported });
    return { fileName: `tracks-${fileStamp(from)}-${fileStamp(to)}.${format}`, contentType: TRACK_FILE_TYPES[format], body };
  }

  private async tracksOf(account: Account, subscriberID: number, period: { fromMs: number; toMs: number }) {
    const all = [];
    let lastTrackID: number | undefined;
    for (;;) {
      const page = await this.tracks.list(account, {
        subscriberIDs: [subscriberID],
        dateFrom: new Date(period.fromMs).toISOString(),
        dateTo: new Date(period.toMs).toISOString(),
        count: TRACK_PAGE,
        ...(lastTrackID === undefined ? {} : { lastTrackID }),
      });
      all.push(...page);
      if (page.length < TRACK_PAGE) return all;
      lastTrackID = page.at(-1)!.trackID;
    }
  }
}

/** `2026-05-20T08:00:00+03:00` → `20260520-0800`: a file name without characters file systems refuse. */
function fileStamp(dateTime: string): string {
  return `${dateTime.slice(0, 10).replace(/-/g, '')}-${dateTime.slice(11, 16).replace(':', '')}`;
}
