import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { dialects } from '../helpers/stores.js';
import { createEmployee, type Client } from '../helpers/server.js';
import { liveDelivery } from '../delivery/delivery-fixtures.js';
import { at, postLive, RULES, TASKS, Trip, ZONES } from './signal-api.js';
import { until } from '../helpers/wait.js';

const MINUTE = 60_000;

async function rule(api: Client, body: Record<string, unknown>): Promise<number> {
  const r = await api.post(RULES, { sendToApi: true, ...body });
  assert.equal(r.status, 201, r.text);
  return r.body.eventID as number;
}

/** The end-to-end check: rules made through the API, fixes posted, signed POSTs at a receiver on loopback. */
for (const dialect of dialects) {
  describe(`every signal kind delivered to a receiver on loopback, on ${dialect}`, () => {
    const live = liveDelivery(dialect);

    it('posts each kind’s signal, signed, in the shapes of 6.3', async () => {
      const { server, receiver } = live;
      const { api } = server;
      const car = await createEmployee(api, { name: 'Truck 7', externalSubscriberID: 'truck-7' });
      const square = [at(1000, -500), at(2000, -500), at(2000, 500), at(1000, 500)].map((p) => ({ latitude: p.lat, longitude: p.lon }));
      const depot = (await api.post(ZONES, { name: 'Depot', bounds: square })).body.zoneID as number;
      const task = at(6000);
      const taskID = (await api.post(TASKS, { title: 'Parcel', startDate: new Date().toISOString(), subscriberID: car, latitude: task.lat, longitude: task.lon, clientPhone: '+7 900 123-45-67' })).body.taskID;
      const hook = (kind: number) => `${receiver.url}/kind-${kind}`;
      const rules = {
        1: await rule(api, { name: 'Speed', kind: 1, apiUrl: hook(1), parameters: { speedLimit: 60, minDurationSeconds: 20 } }),
        2: await rule(api, { name: 'Depot', kind: 2, apiUrl: hook(2), parameters: { zoneIDs: [depot], on: 'both' } }),
        3: await rule(api, { name: 'Stops', kind: 3, apiUrl: hook(3), parameters: { minStopMinutes: 3 } }),
        7: await rule(api, { name: 'Power', kind: 7, apiUrl: hook(7) }),
        9: await rule(api, { name: 'Loading', kind: 9, apiUrl: hook(9), parameters: { sensorID: 1 } }),
        10: await rule(api, { name: 'Temperature', kind: 10, apiUrl: hook(10), parameters: { sensorID: 2, min: -5, max: 8 } }),
        11: await rule(api, { name: 'Trips', kind: 11, apiUrl: hook(11) }),
        24: await rule(api, { name: 'Arriving', kind: 24, apiUrl: hook(24), parameters: { minutesBefore: 3 } }),
      };
      const readings = (power: boolean, load: number, temperature: number) => () => ({
        externalPower: power,
        sensors: [{ sensorID: 1, value: load }, { sensorID: 2, value: temperature }],
      });
      // Through the depot and towards the task at 72 km/h, then parked: power off, loading, too warm.
      const trip = new Trip(car, Math.floor((Date.now() - 30 * MINUTE) / 1000) * 1000).park(60, readings(true, 0, 4)).drive(240, 72, readings(true, 0, 4));
      trip.park(60, readings(true, 0, 4)).park(60, readings(false, 6, 12)).park(300, readings(false, 6, 12));
      await postLive(api, trip.fixes);

      const kinds = Object.keys(rules).map(Number);
      await until('a signal of every kind', () => kinds.every((kind) => receiver.at(`/kind-${kind}`).length > 0), 15_000);
      const secret = (await api.get('/v6/api/eventManagement/signingSecret')).body.secret as string;
      for (const kind of kinds) {
        for (const request of receiver.at(`/kind-${kind}`)) {
          const body = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as Record<string, unknown>;
          assert.equal(body.signalTypeID, kind);
          assert.equal(body.eventID, rules[kind as keyof typeof rules]);
          assert.equal(body.subscriberID, car);
          assert.equal(body.subscriberExternalID, 'truck-7');
          assert.match(String(body.signalDate), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
          for (const field of ['signalID', 'latitude', 'longitude']) assert.equal(typeof body[field], 'number', `${kind}.${field}`);
        }
      }
      const one = (kind: number) => JSON.parse(receiver.at(`/kind-${kind}`)[0]!.body);
      assert.deepEqual(receiver.at('/kind-2').map((r) => JSON.parse(r.body).zoneEventType), [1, 2]);
      assert.equal(one(2).zoneName, 'Depot');
      assert.deepEqual([one(10).sensorID, one(10).sensorValue], [2, 12]);
      assert.deepEqual([one(24).taskID, one(24).taskClientPhone], [taskID, '79001234567']);
      for (const kind of [1, 3, 7, 9, 10, 11, 24]) assert.equal(receiver.at(`/kind-${kind}`).length, 1, `one signal of kind ${kind}`);
    });
  });
}
