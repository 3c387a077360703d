import { haversineMetres } from '../geo/geo.js';
import type { LatLon, Router } from './osrm-router.js';

/** The straight-line estimate assumes at least this speed: a standing or crawling employee is still on the way. */
export const MIN_SPEED_KMH = 15;
/** No road trip is faster than this: farther than this speed covers in the horizon, no estimate is needed. */
const MAX_SPEED_KMH = 130;
/** A route is asked again after this much fix time, or when the employee has moved this far since. */
const REFRESH_MS = 60_000;
const REFRESH_DISTANCE_M = 500;
/** After a failed request the router is left alone this long (wall time) and straight lines are used. */
const BACKOFF_MS = 30_000;
const MAX_IN_FLIGHT = 32;
const MAX_CACHED = 50_000;

interface RouteAnswer {
  from: LatLon;
  fixMs: number;
  /** null: the router knows no route; the straight line is used. */
  seconds: number | null;
}

export interface Logger {
  warn(object: object, message: string): void;
}

/**
 * Estimated travel time of an employee to a task's point (6.3 type 24), answered at once so that
 * ingestion never waits for the network.
 *
 * Without a router: the straight (haversine) distance at the employee's recent average speed,
 * and at least MIN_SPEED_KMH. With a router: its driving time, asked asynchronously and kept per
 * employee and task; until the first answer arrives there is no estimate (the next fix has one),
 * later answers are scaled by how much nearer the employee is since, and asked again every
 * minute or 500 m. While the router fails (timeout, error), straight lines stand in for it.
 */
export class ArrivalEstimator {
  private readonly answers = new Map<string, RouteAnswer>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private downUntil = 0;

  constructor(
    private readonly router: Router | null,
    private readonly log: Logger | null = null,
    private readonly wallClock: () => number = () => performance.now(),
  ) {}

  /**
   * Seconds from `from` to `to`; null when not known yet, or when it certainly takes longer than
   * `horizonSeconds` (then no route is asked for). `traveller` names the employee and the task.
   */
  secondsTo(traveller: { subscriberId: number; taskId: number }, from: LatLon & { t: number }, speedKmh: number, to: LatLon, horizonSeconds: number): number | null {
    const straightM = haversineMetres(from.lat, from.lon, to.lat, to.lon);
    if (straightM / (MAX_SPEED_KMH / 3.6) > horizonSeconds) return null;
    const straightSeconds = straightM / (Math.max(speedKmh, MIN_SPEED_KMH) / 3.6);
    if (!this.router || this.wallClock() < this.downUntil) return straightSeconds;

    const routeKey = `${traveller.subscriberId}:${traveller.taskId}@${to.lat},${to.lon}`;
    const answer = this.answers.get(routeKey);
    if (!answer || from.t - answer.fixMs > REFRESH_MS || haversineMetres(answer.from.lat, answer.from.lon, from.lat, from.lon) > REFRESH_DISTANCE_M) {
      this.ask(routeKey, from, to);
    }
    if (!answer) return null;
    if (answer.seconds === null) return straightSeconds;
    const thenM = haversineMetres(answer.from.lat, answer.from.lon, to.lat, to.lon);
    // The way left, as a fraction of the way then, takes that fraction of the time (too near to tell: the straight line).
    return thenM < 50 ? Math.min(answer.seconds, straightSeconds) : answer.seconds * (straightM / thenM);
  }

  /** Resolves when no route request is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.values());
  }

  private ask(routeKey: string, from: LatLon & { t: number }, to: LatLon): void {
    if (!this.router || this.inFlight.has(routeKey) || this.inFlight.size >= MAX_IN_FLIGHT) return;
    const origin = { lat: from.lat, lon: from.lon };
    const request = this.router
      .drivingSeconds(origin, to)
      .then(
        (seconds) => {
          if (this.answers.size >= MAX_CACHED) this.answers.delete(this.answers.keys().next().value!);
          this.answers.set(routeKey, { from: origin, fixMs: from.t, seconds });
        },
        (error: unknown) => {
          this.downUntil = this.wallClock() + BACKOFF_MS;
          this.log?.warn({ err: error }, 'router request failed; straight-line arrival estimates for a while');
        },
      )
      .finally(() => this.inFlight.delete(routeKey));
    this.inFlight.set(routeKey, request);
  }
}
