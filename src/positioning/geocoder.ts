import { version } from '../version.js';

/** Turns a point into an address, or null when it cannot (now). */
export interface Geocoder {
  reverse(latitude: number, longitude: number): Promise<string | null>;
}

export class GeocoderError extends Error {}

const CACHE_SIZE = 10_000;

/**
 * A Nominatim-compatible reverse geocoder (`GET {url}/reverse?format=jsonv2&lat=…&lon=…`), with a
 * timeout and a cache by point rounded to about 10 m. A failure (timeout, network, non-2xx) throws
 * GeocoderError, so the caller can try again later; "no address here" is null.
 */
export class NominatimGeocoder implements Geocoder {
  private readonly cache = new Map<string, string | null>();

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async reverse(latitude: number, longitude: number): Promise<string | null> {
    const key = `${latitude.toFixed(4)},${longitude.toFixed(4)}`;
    if (this.cache.has(key)) return this.cache.get(key)!;
    const url = new URL('reverse', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.search = new URLSearchParams({ format: 'jsonv2', lat: String(latitude), lon: String(longitude), zoom: '18' }).toString();
    let body: { display_name?: unknown; error?: unknown };
    try {
      const response = await fetch(url, {
        headers: { 'user-agent': `Lokator/${version}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) throw new GeocoderError(`geocoder answered ${response.status}`);
      body = (await response.json()) as typeof body;
    } catch (error) {
      if (error instanceof GeocoderError) throw error;
      throw new GeocoderError(`geocoder unreachable: ${(error as Error).message}`);
    }
    const name = typeof body.display_name === 'string' && body.display_name !== '' ? body.display_name : null;
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, name);
    return name;
  }
}
