import { version } from '../version.js';

/** Turns a point into an address, or null when it cannot (now). */
export interface Geocoder {
  reverse(latitude: number, longitude: number): Promise<string | null>;
}

/** A place an address search found: its name as the geocoder writes it, and its point. */
export interface FoundPlace {
  name: string;
  latitude: number;
  longitude: number;
}

/** Finds places by an address typed on a map (the workspace's search box). */
export interface PlaceSearch {
  search(text: string, language: string): Promise<FoundPlace[]>;
}

/** Places one search answers at most. */
const MAX_PLACES = 8;

export class GeocoderError extends Error {}

const CACHE_SIZE = 10_000;

/**
 * A Nominatim-compatible reverse geocoder (`GET {url}/reverse?format=jsonv2&lat=…&lon=…`), with a
 * timeout and a cache by point rounded to about 10 m. A failure (timeout, network, non-2xx) throws
 * GeocoderError, so the caller can try again later; "no address here" is null.
 */
export class NominatimGeocoder implements Geocoder, PlaceSearch {
  private readonly cache = new Map<string, string | null>();

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * The places whose address matches `text` (`GET {url}/search?format=jsonv2&q=…`), best first,
   * named in `language` where the geocoder knows it. Failures throw GeocoderError, as `reverse`.
   */
  async search(text: string, language: string): Promise<FoundPlace[]> {
    const body = await this.get('search', { format: 'jsonv2', q: text, limit: String(MAX_PLACES), 'accept-language': language });
    if (!Array.isArray(body)) return [];
    const places: FoundPlace[] = [];
    for (const item of body as { display_name?: unknown; lat?: unknown; lon?: unknown }[]) {
      const latitude = Number(item.lat);
      const longitude = Number(item.lon);
      if (typeof item.display_name !== 'string' || !Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
      if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) continue;
      places.push({ name: item.display_name, latitude, longitude });
    }
    return places.slice(0, MAX_PLACES);
  }

  private async get(path: string, params: Record<string, string>): Promise<unknown> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.search = new URLSearchParams(params).toString();
    try {
      const response = await fetch(url, {
        headers: { 'user-agent': `Lokator/${version}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) throw new GeocoderError(`geocoder answered ${response.status}`);
      return (await response.json()) as unknown;
    } catch (error) {
      if (error instanceof GeocoderError) throw error;
      throw new GeocoderError(`geocoder unreachable: ${(error as Error).message}`);
    }
  }

  async reverse(latitude: number, longitude: number): Promise<string | null> {
    const key = `${latitude.toFixed(4)},${longitude.toFixed(4)}`;
    if (this.cache.has(key)) return this.cache.get(key)!;
    const body = ((await this.get('reverse', { format: 'jsonv2', lat: String(latitude), lon: String(longitude), zoom: '18' })) ?? {}) as { display_name?: unknown };
    const name = typeof body.display_name === 'string' && body.display_name !== '' ? body.display_name : null;
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, name);
    return name;
  }
}
