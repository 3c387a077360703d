import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, type Client, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * the statistics route answered another account's vehicle from the pipeline's
 * state (the open bucket: mileage, fuel, engine hours, odometer, latest fix time), read by
 * subscriber id alone. A stranger asking for the vehicle's id must learn nothing, on every interval.
 */

const NOW = Date.parse('2026-05-20T12:00:00Z');
const STATISTICS = '/v6/api/globalPositioningManagement/statistics';

/** A short drive ending now, with fuel and ignition, so an open statistics bucket exists. */
function drive(subscriberID: number) {
  return Array.from({ length: 30 }, (_, i) => ({
    subscriberID,
    locationDate: new Date(NOW - (30 - i) * 20_000).toISOString(),
    latitude: 55.75 + i * 0.001,
    longitude: 37.61,
    velocity: 40,
    fuelLevel: 50 - i * 0.1,
    ignition: true,
    odometer: 1000 + i * 0.1,
  }));
}

for (const dialect of dialects) {
  describe(`statistics across accounts (${dialect})`, () => {
    let server: TestServer;
    let stranger: Client;
    let vehicle: number;

    before(async () => {
      server = await startServer(dialect, { now: NOW });
      vehicle = await createEmployee(server.api, { name: 'Truck 1' });
      assert.equal((await server.api.post(LOCATIONS, drive(vehicle))).status, 201);
      ({ api: stranger } = await server.newAccount());
    });
    after(async () => server?.close());

    for (const interval of [1, 2, 3]) {
      it(`interval ${interval}: the owner sees the vehicle, another account sees nothing of it`, async () => {
        const query = `${STATISTICS}?subscriberIDs=${vehicle}&interval=${interval}`;
        const own = await server.api.get(query);
        assert.equal(own.status, 200);
        assert.equal(own.body.data.length, 1, 'the owner gets the vehicle');

        const foreign = await stranger.get(query);
        assert.equal(foreign.status, 200);
        assert.deepEqual(foreign.body, { data: [] });
        const many = await stranger.get(`${STATISTICS}?subscriberIDs=${Array.from({ length: vehicle + 5 }, (_, i) => i + 1).join(',')}&interval=${interval}`);
        assert.deepEqual(many.body, { data: [] }, 'a range of ids lists no other tenant');
      });
    }
  });
}
