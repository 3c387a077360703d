import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { createRule, expectedBody, postLive, signalsOf, T0, Trip, withoutId } from './signal-api.js';

const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe(`power, loading and sensor signals through the API on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 12 * HOUR });
    });
    after(() => server.close());

    it('power off (7): when externalPower turns false; fixes without the reading change nothing', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 7', externalSubscriberID: 'truck-7' });
      const rule = await createRule(server.api, { name: 'Power', kind: 7, subscriberIDs: [car] });
      const power = [false, true, true, null, null, false, false, true, null, false];
      const trip = new Trip(car, T0).park(100, (i) => (power[i] === null ? {} : { externalPower: power[i] }));
      await postLive(server.api, trip.fixes);
      assert.deepEqual((await signalsOf(server, rule)).map(withoutId), [expectedBody(trip.fixes[5]!, 7, rule, 'truck-7'), expectedBody(trip.fixes[9]!, 7, rule, 'truck-7')]);
    });

    it('a batch rule gets the signals of a request as one array', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 8' });
      const rule = await createRule(server.api, { name: 'Power, batched', kind: 7, subscriberIDs: [car], batch: true });
      const trip = new Trip(car, T0).park(60, (i) => ({ externalPower: i % 2 === 0 }));
      assert.equal((await server.api.post(LOCATIONS, trip.fixes)).status, 201);
      const messages = await signalsOf(server, rule);
      assert.equal(messages.length, 1);
      assert.deepEqual(messages[0].map(withoutId), [1, 3, 5].map((i) => expectedBody(trip.fixes[i]!, 7, rule, null)));
    });

    it('waste loading (9): when the rule’s sensor turns from 0 to non-zero', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 9' });
      const rule = await createRule(server.api, { name: 'Loading', kind: 9, subscriberIDs: [car], parameters: { sensorID: 4 } });
      const other = await createRule(server.api, { name: 'Loading 5', kind: 9, subscriberIDs: [car], parameters: { sensorID: 5 } });
      const values = [0, 0, 3, 3, 0, null, 0, 7, 7, 0];
      const trip = new Trip(car, T0 + HOUR).park(100, (i) => (values[i] === null ? {} : { sensors: [{ sensorID: 4, value: values[i] }, { sensorID: 5, value: 1 }] }));
      await postLive(server.api, trip.fixes);
      assert.deepEqual((await signalsOf(server, rule)).map(withoutId), [expectedBody(trip.fixes[2]!, 9, rule, null), expectedBody(trip.fixes[7]!, 9, rule, null)]);
      assert.deepEqual(await signalsOf(server, other), []);
    });

    it('sensor control (10): per excursion outside [min, max], with sensorID and sensorValue', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 10' });
      const rule = await createRule(server.api, { name: 'Temperature', kind: 10, subscriberIDs: [car], parameters: { sensorID: 2, min: 0, max: 30 } });
      const values = [20, 30, 35, 40, 25, 0, -5, -9, 10];
      const trip = new Trip(car, T0 + 2 * HOUR).park(90, (i) => ({ sensors: [{ sensorID: 2, value: values[i] }] }));
      await postLive(server.api, trip.fixes);
      const bodies = await signalsOf(server, rule);
      assert.deepEqual(bodies.map(withoutId), [
        expectedBody(trip.fixes[2]!, 10, rule, null, { sensorID: 2, sensorValue: 35 }),
        expectedBody(trip.fixes[6]!, 10, rule, null, { sensorID: 2, sensorValue: -5 }),
      ]);
      assert.deepEqual(Object.keys(bodies[0]), ['signalID', 'signalDate', 'signalTypeID', 'subscriberID', 'subscriberExternalID', 'sensorID', 'sensorValue', 'eventID', 'latitude', 'longitude', 'velocity']);
    });
  });
}
