import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../store/database.js';
import { GeocoderError, type Geocoder } from './geocoder.js';
import { nameTrackEnds, unnamedTracks } from './track-store.js';

const BATCH = 20;
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Fills track addresses from the reverse geocoder after ingestion, so a slow or absent geocoder
 * never holds up a batch (CONTRACT §2). Tracks are written with the fallback name first; finished
 * tracks whose addresses the geocoder has not named yet are picked up here. Several servers may
 * run it at once: the update is the same whoever makes it.
 */
export class AddressFiller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private backoffMs: number;
  private log: FastifyBaseLogger | null = null;

  constructor(
    private readonly database: Database,
    private readonly geocoder: Geocoder,
    private readonly intervalMs = 2000,
  ) {
    this.backoffMs = intervalMs;
  }

  start(log: FastifyBaseLogger): void {
    this.log = log;
    this.schedule(this.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One round: names up to BATCH finished tracks; true when there may be more to do. */
  async fillOnce(): Promise<boolean> {
    const rows = await unnamedTracks(this.database.db, BATCH);
    for (const row of rows) {
      const start = row.start_geocoded ? null : await this.geocoder.reverse(row.start_lat, row.start_lon);
      const finish = row.finish_geocoded ? null : await this.geocoder.reverse(row.finish_lat, row.finish_lon);
      await nameTrackEnds(this.database.db, row.account_id, row.id, { start, finish });
    }
    return rows.length === BATCH;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => {
        this.running = null;
      });
    }, delayMs);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      const more = await this.fillOnce();
      this.backoffMs = this.intervalMs;
      if (this.timer) this.schedule(more ? 0 : this.intervalMs);
    } catch (error) {
      // The geocoder is down or slow: try again later, less and less often.
      if (error instanceof GeocoderError) this.log?.warn({ err: error }, 'reverse geocoding failed; retrying later');
      else this.log?.error({ err: error }, 'address filling failed');
      this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
      if (this.timer) this.schedule(this.backoffMs);
    }
  }
}
