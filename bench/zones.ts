/**
 * Zone lookups: 10,000 zones of 20-2,000 vertices and 100,000 fixes over a Europe-sized region.
 * In the same run it measures, and prints as ratios:
 *   - the in-process index (ZoneIndex) against a brute-force scan of every zone (box, then every edge),
 *     on fixes scattered at random (every lookup in a different place: the cache-hostile case) and on
 *     fixes along vehicle tracks taken vehicle by vehicle, the order the pipeline looks them up in;
 *   - the same through ZoneLookup, with its per-lookup zone-version read, on the real SQLite store;
 *   - the HTTP lookup route (route 11) under autocannon against a bare Fastify route answering the
 *     same bodies with the same response schema, and against that bare route behind the API's own
 *     bearer-token check (which reads the database on every request);
 *   - the same zones and points in PostGIS (`ST_Covers`, GiST index), set-based and per query;
 *   - the memory of the index.
 * It prints; it asserts only that the answers agree.
 *
 *   npm run bench:zones
 *   npm run bench:zones -- --zones 2000 --duration 5
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildApp, createServices } from '../src/app.js';
import { AccountService } from '../src/accounts/account-service.js';
import { bearerAuth } from '../src/accounts/api-auth.js';
import { MapObjectService } from '../src/geozones/map-object-service.js';
import { PolygonRing } from '../src/geozones/polygon-ring.js';
import { ZoneIndex, type ZoneReference } from '../src/geozones/zone-index.js';
import { ZoneLookupResult } from '../src/geozones/zone-schema.js';
import { ZoneService } from '../src/geozones/zone-service.js';
import { toZoneColumns } from '../src/geozones/zone-store.js';
import { bumpZoneVersion } from '../src/geozones/zone-version-store.js';
import { migrate, openDatabase, type Database } from '../src/store/database.js';
import { Cleanup, flagValue, fmt, ratio, tempDir } from './common.js';
import { coveringZonesInOneQuery, coveringZonesPerQuery, loadPostgis } from './postgis-zones.js';
import { generatePoints, generateTracks, generateZones, type BenchZone } from './zone-generator.js';

const LOOKUP = '/v6/api/zoneManagement/zones/mapObjectCoordinates';
const POINTS = 100_000;
const BRUTE_FORCE_POINTS = 1_000;
const HTTP_URLS = 2_000;
const POSTGIS_POINTS = 20_000;
const TARGETS = { lookupsPerSecond: 1_000_000, http: 0.7, postgis: 10 };

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

type Point = { latitude: number; longitude: number };

const say = (line: string) => process.stdout.write(`${line}\n`);
const memory = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** Runs `pass` (one sweep over the points, returning its hits) until `minMs` have passed; answers lookups per second. */
async function rate(points: Point[], minMs: number, pass: (points: Point[]) => number | Promise<number>): Promise<{ perSecond: number; hits: number }> {
  const started = performance.now();
  const hits = await pass(points);
  let lookups = points.length;
  while (performance.now() - started < minMs) {
    await pass(points);
    lookups += points.length;
  }
  return { perSecond: (lookups * 1000) / (performance.now() - started), hits };
}

function sameAnswers(what: string, expected: number[][], actual: number[][]): void {
  const differ = expected.filter((ids, i) => ids.join() !== actual[i]!.join()).length;
  if (differ > 0) throw new Error(`${what}: ${differ} of ${expected.length} points answered differently`);
}

async function sqliteWithZones(dir: string, zones: BenchZone[], cleanup: Cleanup) {
  const database: Database = await openDatabase({ url: join(dir, 'zones.db') });
  cleanup.add(() => database.close());
  await migrate(database);
  const services = createServices(database);
  const { account, token } = await services.accounts.createAccount({ name: 'Bench account', timeZone: 'UTC' });
  await database.transaction(async (tx) => {
    const version = await bumpZoneVersion(tx, account.id);
    for (let i = 0; i < zones.length; i += 100) {
      const rows = zones.slice(i, i + 100).map(({ zoneID, ring }) => ({
        ...toZoneColumns({
          zoneID,
          name: `Zone ${zoneID}`,
          color: 0,
          enabled: true,
          zoneGroupID: null,
          comment: '',
          bounds: ring.map(([longitude, latitude]) => ({ longitude, latitude })),
          customFieldsFormTemplateID: null,
          customFieldFormItems: [],
        }),
        account_id: account.id,
        version,
        created_at: 0,
        updated_at: 0,
      }));
      await tx.insertInto('zones').values(rows).execute();
    }
  });
  return { database, services, account, token };
}

async function load(url: string, requests: { method: 'GET'; path: string }[], headers: Record<string, string>, seconds: number): Promise<number> {
  // The load generator runs in a worker thread, so the server under test has the main thread to itself.
  const result = await autocannon({ url, requests, headers, duration: seconds, connections: 10, workers: 1 });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result['2xx'] / result.duration;
}

async function main(): Promise<void> {
  const zoneCount = flagValue('--zones', 10_000);
  const seconds = flagValue('--duration', 10);
  const cleanup = new Cleanup();
  try {
    const zones = generateZones(zoneCount);
    const points = generatePoints(POINTS);
    const vertices = zones.reduce((sum, z) => sum + z.ring.length, 0);
    say(`== ${fmt(zoneCount)} zones, ${fmt(vertices)} vertices (mean ${fmt(vertices / zoneCount)}, 20-2,000), ${fmt(POINTS)} fixes`);

    // In process: the index alone, and the brute force it replaces.
    const before = memory();
    let started = performance.now();
    const index = ZoneIndex.build(zones.map(({ zoneID, ring }) => ({ ref: { zoneID, name: `Zone ${zoneID}`, zoneGroupID: null }, ring: new PolygonRing(ring) })));
    const buildMs = performance.now() - started;
    const indexBytes = memory() - before;
    const sweep = (sample: Point[]) => sample.map((p) => index.findZonesContaining(p.latitude, p.longitude).map((z) => z.zoneID));
    const lookupAll = (sample: Point[]) => {
      let hits = 0;
      for (const p of sample) hits += index.findZonesContaining(p.latitude, p.longitude).length;
      return hits;
    };
    const indexRate = await rate(points, 3000, lookupAll);
    const tracks = generateTracks(1000, 100);
    const trackRate = await rate(tracks, 3000, lookupAll);
    const rings = zones.map(({ zoneID, ring }) => ({ zoneID, ring: new PolygonRing(ring) }));
    const bruteSample = points.slice(0, BRUTE_FORCE_POINTS);
    const bruteForce = (sample: Point[]) => sample.map((p) => rings.filter((z) => z.ring.containsScanningAllEdges(p.longitude, p.latitude)).map((z) => z.zoneID));
    sameAnswers('index vs brute force', bruteForce(bruteSample), sweep(bruteSample));
    const bruteRate = await rate(bruteSample, 2000, (sample) => bruteForce(sample).reduce((n, ids) => n + ids.length, 0));
    say(`index: built in ${fmt(buildMs)} ms; ${(indexBytes / 2 ** 20).toFixed(1)} MiB (${(indexBytes / vertices).toFixed(1)} bytes per vertex; typed arrays ${(index.byteSize / 2 ** 20).toFixed(1)} MiB)`);
    say(`hits: ${(indexRate.hits / POINTS).toFixed(2)} zones per fix on average`);

    // Through ZoneLookup on the real store: one zone-version read per lookup keeps it current.
    const dir = tempDir(cleanup);
    const store = await sqliteWithZones(dir, zones, cleanup);
    const lookup = store.services.geozones.lookup;
    started = performance.now();
    await lookup.indexFor(store.account.id);
    const coldMs = performance.now() - started;
    await new ZoneService({ database: store.database, lookup, mapObjects: new MapObjectService(store.database) }).patch(store.account, 1, { name: 'Zone 1, renamed' });
    started = performance.now();
    await lookup.indexFor(store.account.id);
    const rebuildMs = performance.now() - started;
    const checkedRate = await rate(points, 3000, async (sample) => {
      let hits = 0;
      for (const p of sample) hits += (await lookup.findZonesContaining(store.account.id, p.latitude, p.longitude)).length;
      return hits;
    });
    say(`from the database: first build ${fmt(coldMs)} ms, rebuild after one zone changed ${fmt(rebuildMs)} ms`);

    // HTTP: route 11 against a bare Fastify route answering the same bodies.
    const app = await buildApp({ database: store.database, services: store.services, config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 1 << 20 } });
    cleanup.add(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const bare = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    cleanup.add(() => bare.close());
    const answers = new Map<string, { zones: ZoneReference[] }>();
    const requests = points.slice(0, HTTP_URLS).map((p) => {
      const path = `${LOOKUP}?latitude=${p.latitude}&longitude=${p.longitude}`;
      answers.set(path, { zones: index.findZonesContaining(p.latitude, p.longitude).map((z) => ({ ...z, name: z.zoneID === 1 ? 'Zone 1, renamed' : z.name })) });
      return { method: 'GET' as const, path };
    });
    bare.get(LOOKUP, { schema: { response: { 200: ZoneLookupResult } } }, async (request) => answers.get(request.url)!);
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const authed = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    cleanup.add(() => authed.close());
    authed.addHook('onRequest', bearerAuth(new AccountService(store.database)));
    authed.get(LOOKUP, { schema: { response: { 200: ZoneLookupResult } } }, async (request) => answers.get(request.url)!);
    await authed.listen({ port: 0, host: '127.0.0.1' });
    const apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    const authedUrl = `http://127.0.0.1:${(authed.server.address() as AddressInfo).port}`;
    const headers = { authorization: `Bearer ${store.token}` };
    for (const { path } of requests.slice(0, 200)) {
      const [mine, theirs] = await Promise.all([fetch(`${apiUrl}${path}`, { headers }).then((r) => r.text()), fetch(`${bareUrl}${path}`).then((r) => r.text())]);
      if (mine !== theirs) throw new Error(`the bare route answers ${path} differently:\n${mine}\n${theirs}`);
    }
    await load(apiUrl, requests, headers, 2);
    await load(bareUrl, requests, {}, 2);
    await load(authedUrl, requests, headers, 2);
    // Taking turns, so drift on a busy machine hits every side alike.
    let apiRps = 0;
    let bareRps = 0;
    let authedRps = 0;
    for (let turn = 0; turn < 2; turn++) {
      apiRps += (await load(apiUrl, requests, headers, seconds / 2)) / 2;
      bareRps += (await load(bareUrl, requests, {}, seconds / 2)) / 2;
      authedRps += (await load(authedUrl, requests, headers, seconds / 2)) / 2;
    }

    // PostGIS: the same zones, the same points.
    say('loading the zones into PostGIS…');
    const postgis = await loadPostgis(zones, cleanup);
    const gisPoints = points.slice(0, POSTGIS_POINTS);
    started = performance.now();
    const gisAnswers = await coveringZonesInOneQuery(postgis.client, gisPoints);
    const gisSetRate = (gisPoints.length * 1000) / (performance.now() - started);
    sameAnswers('index vs PostGIS ST_Covers', gisAnswers, sweep(gisPoints));
    const perQueryPoints = gisPoints.slice(0, 5000);
    started = performance.now();
    await coveringZonesPerQuery(postgis.url, perQueryPoints, 4);
    const gisQueryRate = (perQueryPoints.length * 1000) / (performance.now() - started);

    say('');
    say('| measure | lookups/s | reference (same run) | reference/s | ratio | target |');
    say('|---|---|---|---|---|---|');
    say(`| in-process index, random fixes (one core) | ${fmt(indexRate.perSecond)} | brute-force scan of every zone | ${fmt(bruteRate.perSecond)} | ${ratio(indexRate.perSecond, bruteRate.perSecond)} | ≥ ${fmt(TARGETS.lookupsPerSecond)}/s |`);
    say(`| in-process index, fixes along tracks (one core) | ${fmt(trackRate.perSecond)} | brute-force scan of every zone | ${fmt(bruteRate.perSecond)} | ${ratio(trackRate.perSecond, bruteRate.perSecond)} | ≥ ${fmt(TARGETS.lookupsPerSecond)}/s |`);
    say(`| ZoneLookup with a version read per lookup | ${fmt(checkedRate.perSecond)} | the index alone | ${fmt(indexRate.perSecond)} | ${ratio(checkedRate.perSecond, indexRate.perSecond)} | |`);
    say(`| HTTP route 11, 10 connections | ${fmt(apiRps)} | bare Fastify route, same bodies | ${fmt(bareRps)} | ${ratio(apiRps, bareRps)} | ≥ ${TARGETS.http} |`);
    say(`| HTTP route 11, 10 connections | ${fmt(apiRps)} | the bare route behind the API's bearer-token check | ${fmt(authedRps)} | ${ratio(apiRps, authedRps)} | |`);
    say(`| in-process index | ${fmt(indexRate.perSecond)} | PostGIS ST_Covers + GiST, one set-based query (${postgis.where}) | ${fmt(gisSetRate)} | ${ratio(indexRate.perSecond, gisSetRate)} | ≥ ${TARGETS.postgis} |`);
    say(`| in-process index | ${fmt(indexRate.perSecond)} | PostGIS, one prepared query per fix, 4 connections | ${fmt(gisQueryRate)} | ${ratio(indexRate.perSecond, gisQueryRate)} | |`);
    say(`| HTTP route 11 | ${fmt(apiRps)} | PostGIS, one prepared query per fix, 4 connections | ${fmt(gisQueryRate)} | ${ratio(apiRps, gisQueryRate)} | |`);
    say(`\nindex memory for ${fmt(zoneCount)} zones: ${(indexBytes / 2 ** 20).toFixed(1)} MiB; answers agree with the brute force on ${fmt(BRUTE_FORCE_POINTS)} fixes and with PostGIS on ${fmt(POSTGIS_POINTS)}`);
  } finally {
    await cleanup.run();
  }
}

await main();
