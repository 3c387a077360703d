/** A point as a router takes it. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** Driving time between two points; null when the router knows no route between them. */
export interface Router {
  drivingSeconds(from: LatLon, to: LatLon): Promise<number | null>;
}

/**
 * An OSRM-compatible router (OSRM, or a service speaking its route API):
 * `GET {baseUrl}/route/v1/driving/{lon},{lat};{lon},{lat}?overview=false`, whose answer's
 * `routes[0].duration` is the driving time in seconds. Each request is cut off after `timeoutMs`.
 */
export class OsrmRouter implements Router {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async drivingSeconds(from: LatLon, to: LatLon): Promise<number | null> {
    const url = `${this.baseUrl}/route/v1/driving/${from.lon},${from.lat};${to.lon},${to.lat}?overview=false`;
    const response = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs), headers: { accept: 'application/json' } });
    const text = await response.text();
    let body: { code?: unknown; routes?: { duration?: unknown }[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new Error(`router answered ${response.status} without JSON`);
    }
    // OSRM answers 400 with these codes when a point is off the road network or unconnected.
    if (body.code === 'NoRoute' || body.code === 'NoSegment') return null;
    const duration = body.routes?.[0]?.duration;
    if (!response.ok || body.code !== 'Ok' || typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0) {
      throw new Error(`router answered ${response.status} ${String(body.code)}`);
    }
    return duration;
  }
}
