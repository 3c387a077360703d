import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startOsmAnd, type OsmAndListener } from '../helpers/osmand.js';
import { createEmployee, LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * A phone (Traccar Client) that was offline all day sends its buffer in the evening, one request a
 * fix over the OsmAnd port, and an integrator imports a van's earlier day through the ingestion
 * route. Neither is anyone's current whereabouts: nobody turns online, nobody stays online longer,
 * and lastLocations keeps telling the truth about when each position was.
 */
const NOW = Date.parse('2026-11-23T20:00:00Z');
const MINUTE = 60_000;
/** ONLINE_TIMEOUT's default, and how stale the stored arrival time may be (a tenth of it, at most 30 s). */
const TIMEOUT = 10 * MINUTE;
const GRANULARITY = 30_000;
const MORNING = NOW - 11 * 60 * MINUTE;

for (const dialect of dialects) {
  describe(`late uploads and isOnline on ${dialect}`, () => {
    let server: TestServer;
    let osmand: OsmAndListener;
    let phone: number;
    let van: number;

    before(async () => {
      server = await startServer(dialect, { now: NOW });
      osmand = await startOsmAnd(server.services);
      phone = await createEmployee(server.api, { name: 'Courier phone', deviceKey: 'late-phone-1' });
      van = await createEmployee(server.api, { name: 'Van' });
    });
    after(async () => {
      await osmand.close();
      await server.close();
    });

    const employee = async (id: number) => (await server.api.get(`${SUBSCRIBERS}/${id}`)).body;
    const lastLocation = async (id: number) => (await server.api.get(`${SUBSCRIBERS}/lastLocations?subscriberIDs=${id}`)).body[0];
    /** One buffered fix as Traccar Client sends it: GET with the fix's own timestamp in seconds. */
    const phoneFix = async (atMs: number, lat = 59.93) => {
      const r = await osmand.send('GET', `/?id=late-phone-1&lat=${lat}&lon=30.31&timestamp=${Math.floor(atMs / 1000)}&speed=0`);
      assert.equal(r.status, 200, r.text);
    };
    const vanFixes = async (times: number[], lat = 55.75) => {
      const r = await server.api.post(
        LOCATIONS,
        times.map((atMs) => ({ subscriberID: van, locationDate: new Date(atMs).toISOString(), latitude: lat, longitude: 37.61, velocity: 0, angle: 0 })),
      );
      assert.equal(r.status, 201, r.text);
    };

    it('a phone’s morning uploaded in the evening over OsmAnd leaves it offline, lastLocations dated in the morning', async () => {
      for (let i = 0; i < 3; i++) await phoneFix(MORNING + i * MINUTE);
      assert.equal((await employee(phone)).isOnline, false);
      const last = await lastLocation(phone);
      assert.equal(last.locationDate, '2026-11-23T09:02:00+00:00', 'the latest fix is the morning’s, and says so');
    });

    it('an imported earlier day on the ingestion route leaves the van offline', async () => {
      await vanFixes([MORNING, MORNING + MINUTE, NOW - TIMEOUT - 1000]);
      assert.equal((await employee(van)).isOnline, false);
      assert.equal((await lastLocation(van)).locationDate, '2026-11-23T19:49:59+00:00');
    });

    it('a fix at most ONLINE_TIMEOUT old on arrival turns it online', async () => {
      await vanFixes([NOW - TIMEOUT]);
      assert.equal((await employee(van)).isOnline, true);
      await phoneFix(NOW - 5000, 59.95);
      assert.equal((await employee(phone)).isOnline, true);
      assert.equal((await lastLocation(phone)).latitude, 59.95);
    });

    it('more of the old buffer while online moves no current position back and does not keep it online', async () => {
      // Five minutes on, the phone sends the rest of its morning and nothing current.
      server.setNow(NOW + 5 * MINUTE);
      for (let i = 3; i < 6; i++) await phoneFix(MORNING + i * MINUTE);
      await vanFixes([MORNING + 2 * MINUTE]);
      const last = await lastLocation(phone);
      assert.equal(last.latitude, 59.95, 'lastLocations keeps the current fix');
      assert.equal(last.locationDate, '2026-11-23T19:59:55+00:00');
      assert.equal((await employee(phone)).isOnline, true);

      // ONLINE_TIMEOUT after the last current fix arrived (not after the old ones): offline.
      server.setNow(NOW + TIMEOUT + GRANULARITY + 1000);
      const flipped = await server.services.employees.presence.sweepOffline();
      assert.equal(flipped, 2);
      assert.equal((await employee(phone)).isOnline, false);
      assert.equal((await employee(van)).isOnline, false);
    });

    it('every fix is still stored and listed, however old', async () => {
      const r = await server.api.get(`${LOCATIONS}?subscriberIDs=${phone}&dateFrom=2026-11-23T00:00:00Z&dateTo=2026-11-24T00:00:00Z`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.length, 7);
    });
  });
}
