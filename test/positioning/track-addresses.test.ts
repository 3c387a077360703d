import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AddressFiller } from '../../src/positioning/address-filler.js';
import { NominatimGeocoder } from '../../src/positioning/geocoder.js';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const T0 = Date.parse('2026-05-20T06:00:00Z');
const TRACKS = '/v6/api/globalPositioningManagement/tracks';
const DEG_PER_M = 1 / (111_320 * Math.cos((55.75 * Math.PI) / 180));

/** Parked 2 minutes at `fromLon`, a 3 km drive east, parked 6 minutes: one closed track. */
function trip(subscriberID: number, fromMs: number, fromLon: number) {
  const fixes = [];
  let t = fromMs;
  let lon = fromLon;
  for (let i = 0; i < 12; i++, t += 10_000) fixes.push({ subscriberID, locationDate: new Date(t).toISOString(), latitude: 55.75, longitude: lon, velocity: 0 });
  for (let i = 0; i < 30; i++, t += 10_000) {
    lon += 100 * DEG_PER_M;
    fixes.push({ subscriberID, locationDate: new Date(t).toISOString(), latitude: 55.75, longitude: lon, velocity: 36 });
  }
  for (let i = 0; i < 36; i++, t += 10_000) fixes.push({ subscriberID, locationDate: new Date(t).toISOString(), latitude: 55.75, longitude: lon, velocity: 0 });
  return { fixes, startLon: fromLon, finishLon: lon };
}

/** A Nominatim-compatible reverse geocoder on loopback that counts its calls. */
async function startNominatim(answer: (lat: number, lon: number) => { status: number; body?: unknown; delayMs?: number }) {
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    calls.push(url.pathname + url.search);
    const { status, body, delayMs = 0 } = answer(Number(url.searchParams.get('lat')), Number(url.searchParams.get('lon')));
    setTimeout(() => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body ?? {}));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, close: () => new Promise((r) => server.close(r)) };
}

for (const dialect of dialects) {
  describe(`track addresses on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { now: T0 + 12 * 3_600_000 });
    });
    after(() => server.close());

    it('names the ends of a track by zone, else nearest map object within 200 m, else coordinates', async () => {
      const car = await createEmployee(server.api, { name: 'Car' });
      const { fixes, startLon, finishLon } = trip(car, T0, 37.6);
      const d = 0.002;
      const zone = await server.api.post('/v6/api/zoneManagement/zones', {
        name: 'Depot',
        bounds: [
          { latitude: 55.75 - d, longitude: startLon - d },
          { latitude: 55.75 - d, longitude: startLon + d },
          { latitude: 55.75 + d, longitude: startLon + d },
          { latitude: 55.75 + d, longitude: startLon - d },
        ],
      });
      assert.equal(zone.status, 201, zone.text);
      // 150 m north of the finish: near enough; a farther one 300 m south is not chosen.
      await server.api.post('/v6/api/mapObjectManagement/mapObjects', { name: 'Client Romashka', latitude: 55.75 + 150 / 111_320, longitude: finishLon });
      await server.api.post('/v6/api/mapObjectManagement/mapObjects', { name: 'Too far', latitude: 55.75 - 300 / 111_320, longitude: finishLon });
      assert.equal((await server.api.post(LOCATIONS, fixes)).status, 201);

      const [track] = (await server.api.get(`${TRACKS}?subscriberIDs=${car}&dateFrom=2026-05-20T00:00:00Z`)).body;
      assert.equal(track.startAddress, 'Depot');
      assert.equal(track.finishAddress, 'Client Romashka');

      const far = await createEmployee(server.api, { name: 'Far car' });
      const other = trip(far, T0, 30.3);
      assert.equal((await server.api.post(LOCATIONS, other.fixes)).status, 201);
      const [plain] = (await server.api.get(`${TRACKS}?subscriberIDs=${far}&dateFrom=2026-05-20T00:00:00Z`)).body;
      assert.equal(plain.startAddress, '55.75000, 30.30000');
      assert.equal(plain.finishAddress, `55.75000, ${other.finishLon.toFixed(5)}`);
    });

    it('fills addresses from the reverse geocoder afterwards, with a cache, and retries when it fails', async () => {
      let failing = true;
      const nominatim = await startNominatim((lat, lon) =>
        failing ? { status: 503 } : { status: 200, body: { display_name: `${lat.toFixed(3)} Lenina st, ${lon.toFixed(3)}` } },
      );
      try {
        const van = await createEmployee(server.api, { name: 'Van' });
        const { fixes } = trip(van, T0 + 3_600_000, 40.0);
        // Ingestion never waits for the geocoder: the track is stored with the fallback name.
        assert.equal((await server.api.post(LOCATIONS, fixes)).status, 201);
        const [before] = (await server.api.get(`${TRACKS}?subscriberIDs=${van}&dateFrom=2026-05-20T00:00:00Z`)).body;
        assert.equal(before.startAddress, '55.75000, 40.00000');

        const filler = new AddressFiller(server.database, new NominatimGeocoder(nominatim.url, 2000));
        await assert.rejects(filler.fillOnce(), /503/);
        const [still] = (await server.api.get(`${TRACKS}?subscriberIDs=${van}&dateFrom=2026-05-20T00:00:00Z`)).body;
        assert.equal(still.startAddress, '55.75000, 40.00000', 'a failure changes nothing');

        failing = false;
        while (await filler.fillOnce()) {
          // until every finished track is named
        }
        const [after] = (await server.api.get(`${TRACKS}?subscriberIDs=${van}&dateFrom=2026-05-20T00:00:00Z`)).body;
        assert.equal(after.startAddress, '55.750 Lenina st, 40.000');
        assert.match(after.finishAddress, /Lenina st/);
        assert.match(nominatim.calls.at(-1)!, /^\/reverse\?format=jsonv2&lat=55\.75&lon=/);

        const calls = nominatim.calls.length;
        const again = await createEmployee(server.api, { name: 'Van 2' });
        assert.equal((await server.api.post(LOCATIONS, trip(again, T0 + 3_600_000, 40.0).fixes)).status, 201);
        while (await filler.fillOnce()) {
          // drain
        }
        assert.equal(nominatim.calls.length, calls, 'the same points come from the cache');
        const [cached] = (await server.api.get(`${TRACKS}?subscriberIDs=${again}&dateFrom=2026-05-20T00:00:00Z`)).body;
        assert.equal(cached.startAddress, '55.750 Lenina st, 40.000');
      } finally {
        await nominatim.close();
      }
    });

    it('gives up on a geocoder that does not answer in time, leaving the fallback', async () => {
      const slow = await startNominatim(() => ({ status: 200, body: { display_name: 'late' }, delayMs: 1500 }));
      try {
        const bus = await createEmployee(server.api, { name: 'Bus' });
        assert.equal((await server.api.post(LOCATIONS, trip(bus, T0 + 2 * 3_600_000, 45.0).fixes)).status, 201);
        const filler = new AddressFiller(server.database, new NominatimGeocoder(slow.url, 200));
        await assert.rejects(filler.fillOnce(), /unreachable|timeout|abort/i);
        const [track] = (await server.api.get(`${TRACKS}?subscriberIDs=${bus}&dateFrom=2026-05-20T00:00:00Z`)).body;
        assert.equal(track.startAddress, '55.75000, 45.00000');
      } finally {
        await slow.close();
      }
    });
  });
}
