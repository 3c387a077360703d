import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { haversineMetres } from '../../src/geo/geo.js';
import { Client, createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects, freshDatabase } from '../helpers/stores.js';
import { at, createRule, moscow, postLive, signalsOf, T0, TASKS, Trip, withoutId } from './signal-api.js';

const HOUR = 3_600_000;
/** The task is 3050 m east of the start: fixes every 100 m are 1850, 1750 … m from it. */
const TASK_EAST_M = 3050;

/** An OSRM-compatible router on loopback: roads three times as slow as the straight line at 36 km/h; or failing. */
class FakeOsrm {
  readonly paths: string[] = [];
  failing = false;
  private readonly server: Server = createServer((request, response) => {
    this.paths.push(request.url ?? '');
    const match = /^\/osrm\/route\/v1\/driving\/([-\d.]+),([-\d.]+);([-\d.]+),([-\d.]+)\?overview=false$/.exec(request.url ?? '');
    if (this.failing || !match) {
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"InternalError"}');
      return;
    }
    const [lon1, lat1, lon2, lat2] = match.slice(1).map(Number) as [number, number, number, number];
    const duration = (3 * haversineMetres(lat1, lon1, lat2, lon2)) / 10;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'Ok', routes: [{ duration, distance: 0 }], waypoints: [] }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/osrm/`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The test server of helpers/server.ts, with ROUTER_URL set. */
async function startRoutedServer(dialect: 'sqlite' | 'postgres', routerUrl: string) {
  const { database, drop } = await freshDatabase(dialect);
  const clock = () => T0 + 12 * HOUR;
  const services: Services = createServices(database, clock, { allowPrivateAddresses: true, router: { url: routerUrl, timeoutMs: 1000 } });
  const app = await buildApp({ database, services, clock, config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 16 * 1024 * 1024 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { account, token } = await services.accounts.createAccount({ name: 'Routed', timeZone: 'Europe/Moscow' });
  const api = new Client(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, token);
  const server = { app, database, services, api, account, token } as unknown as TestServer;
  return { server, close: async () => (await app.close(), await drop()) };
}

/** A task at TASK_EAST_M for the employee, through the tasks API. */
async function createTask(api: Client, subscriberID: number, over: object = {}): Promise<number> {
  const point = at(TASK_EAST_M);
  const r = await api.post(TASKS, {
    title: 'Deliver parcel',
    startDate: '2026-05-20T12:00:00',
    deadline: '2026-05-20T13:30:00',
    subscriberID,
    latitude: point.lat,
    longitude: point.lon,
    externalID: 'order-77',
    clientName: 'Anna Smirnova',
    clientPhone: '+7 (900) 123-45-67',
    customFieldFormItems: [{ externalID: 'floor', name: 'Floor', value: '4', type: 'Integer' }],
    ...over,
  });
  assert.equal(r.status, 201, r.text);
  return r.body.taskID as number;
}

/** Posts the trip a minute at a time, letting route requests finish between requests. */
async function drive(server: TestServer, trip: Trip): Promise<void> {
  for (let i = 0; i < trip.fixes.length; i += 6) {
    await postLive(server.api, trip.fixes.slice(i, i + 6));
    await server.services.signals.routerIdle();
  }
}

const fromTask = (fix: { latitude: number; longitude: number }) => haversineMetres(fix.latitude, fix.longitude, at(TASK_EAST_M).lat, at(TASK_EAST_M).lon);

for (const dialect of dialects) {
  describe(`estimated arrival signals (24) through the API on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 12 * HOUR });
    });
    after(() => server.close());

    it('without a router: once per task, when the straight line at the recent speed is within minutesBefore', async () => {
      const courier = await createEmployee(server.api, { name: 'Courier', externalSubscriberID: 'c-1' });
      const other = await createEmployee(server.api, { name: 'Other' });
      const rule = await createRule(server.api, { name: 'Arriving', kind: 24, subscriberIDs: [courier], parameters: { minutesBefore: 3 } });
      const theirs = await createRule(server.api, { name: 'Their arrivals', kind: 24, subscriberIDs: [other], parameters: { minutesBefore: 30 } });
      const task = await createTask(server.api, courier);
      await createTask(server.api, courier, { status: 3, externalID: 'done' });
      await createTask(server.api, other, { externalID: 'not-mine' });
      const trip = new Trip(courier, T0).drive(300, 36).park(120);
      await drive(server, trip);

      // 36 km/h is 10 m/s: three minutes away is 1800 m; the first fix that near is 1750 m away.
      const fired = trip.fixes.find((f) => fromTask(f) <= 1800)!;
      assert.ok(Math.abs(fromTask(fired) - 1750) < 5);
      const bodies = await signalsOf(server, rule);
      assert.equal(bodies.length, 1);
      const eta = Date.parse(fired.locationDate) + fromTask(fired) * 100;
      const body = withoutId(bodies[0]) as Record<string, unknown>;
      assert.ok(Math.abs(Date.parse(String(body.estimatedArrivalDate)) - eta) <= 1000, `${String(body.estimatedArrivalDate)} vs ${moscow(eta)}`);
      assert.deepEqual(body, {
        signalDate: moscow(Date.parse(fired.locationDate)),
        signalTypeID: 24,
        subscriberID: courier,
        subscriberExternalID: 'c-1',
        taskID: task,
        externalTaskID: 'order-77',
        taskStartDate: '2026-05-20T12:00:00+03:00',
        taskDeadlineDate: '2026-05-20T13:30:00+03:00',
        estimatedArrivalDate: body.estimatedArrivalDate,
        customFields: [{ externalID: 'floor', value: '4' }],
        taskClientPhone: '79001234567',
        taskClientName: 'Anna Smirnova',
        eventID: rule,
        latitude: fired.latitude,
        longitude: fired.longitude,
        velocity: 36,
      });
      assert.deepEqual(await signalsOf(server, theirs), [], 'the other employee sent nothing');
    });
  });

  describe(`estimated arrival with an OSRM-compatible router on ${dialect}`, () => {
    let osrm: FakeOsrm;
    let routed: Awaited<ReturnType<typeof startRoutedServer>>;
    before(async () => {
      osrm = new FakeOsrm();
      routed = await startRoutedServer(dialect, await osrm.start());
    });
    after(async () => {
      await routed.close();
      await osrm.close();
    });

    it('uses the router’s driving time, asked without holding up ingestion', async () => {
      const { server } = routed;
      const courier = await createEmployee(server.api, { name: 'Courier' });
      const rule = await createRule(server.api, { name: 'Arriving', kind: 24, subscriberIDs: [courier], parameters: { minutesBefore: 3 } });
      await createTask(server.api, courier);
      const trip = new Trip(courier, T0).drive(300, 36).park(60);
      await drive(server, trip);
      // The roads take three times the straight line's 10 m/s: three minutes away is 600 m, first reached 550 m away.
      const [body, ...more] = await signalsOf(server, rule);
      assert.deepEqual(more, []);
      const fired = trip.fixes.find((f) => fromTask(f) <= 600)!;
      assert.equal(body.signalDate, moscow(Date.parse(fired.locationDate)));
      assert.ok(Math.abs(Date.parse(body.estimatedArrivalDate) - (Date.parse(fired.locationDate) + fromTask(fired) * 300)) <= 1000);
      assert.ok(osrm.paths.length >= 2 && osrm.paths.length < trip.fixes.length / 2, `${osrm.paths.length} route requests for ${trip.fixes.length} fixes`);
      const first = trip.fixes[0]!;
      assert.ok(osrm.paths[0]!.startsWith(`/osrm/route/v1/driving/${first.longitude},${first.latitude};`), osrm.paths[0]);
    });

    it('falls back to the straight line while the router fails', async () => {
      const { server } = routed;
      osrm.failing = true;
      const courier = await createEmployee(server.api, { name: 'Courier 2' });
      const rule = await createRule(server.api, { name: 'Arriving 2', kind: 24, subscriberIDs: [courier], parameters: { minutesBefore: 3 } });
      await createTask(server.api, courier);
      const trip = new Trip(courier, T0 + HOUR).drive(300, 36);
      await drive(server, trip);
      const [body] = await signalsOf(server, rule);
      const fired = trip.fixes.find((f) => fromTask(f) <= 1800)!;
      assert.equal(body?.signalDate, moscow(Date.parse(fired.locationDate)));
    });
  });
}
