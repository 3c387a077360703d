/**
 * Statistics latency: GET /v6/api/globalPositioningManagement/statistics?interval=1 over a month of
 * one vehicle's 10-second fixes (267,840, stored through LocationService.ingestBatch, the server's
 * own ingestion path, in time order), against GET …/locations/{id} on the same app: the cheapest
 * request the API has (one row by primary key), which pays the same routing, authentication,
 * hooks and serialization. Both through app.inject, interleaved run by run. Prints the median and
 * p95 in ms, their ratio and the target; interval=2 and interval=3 (count=1000) for information.
 * Asserts nothing.
 *
 *   npm run bench:statistics                 # SQLite server
 *   npm run bench:statistics -- --pg         # PostgreSQL server (DATABASE_URL, or a throwaway cluster)
 *   npm run bench:statistics -- --runs 500   # measured runs per request (default 200)
 *   npm run bench:statistics -- --days 10    # a shorter month, for a quick look (default 31)
 */
import { sql } from 'kysely';
import type { LocationInput } from '../src/positioning/location-schema.js';
import type { Static } from 'typebox';
import type { Track, VehicleEvents } from '../src/positioning/track-schema.js';
import {
  Cleanup,
  LOCATIONS,
  elapsedMs,
  flagValue,
  fmt,
  iso,
  pause,
  percentile,
  ratio,
  runBench,
  serverStore,
  startServer,
  tempDir,
  type BenchServer,
} from './common.js';
import { DAY_MS, FIXES_PER_DAY, vehicleDays } from './vehicle.js';

const POSITIONING = '/v6/api/globalPositioningManagement';
const STATISTICS = `${POSITIONING}/statistics`;
/** The month: October 2026, 31 days, in the past, so no fix is refused as dated in the future. */
const MONTH_START_MS = Date.UTC(2026, 9, 1);
/** 8 hours of fixes per batch: what a gateway holding a shift's data would post. */
const BATCH = 2880;
const WARMUP_RUNS = 20;
/** Runs per request on PostgreSQL before ANALYZE (slow: few). */
const UNANALYZED_RUNS = 10;
const TARGET_MS = 20;


/** Stores the month through the service, batch by batch in time order; returns the elapsed milliseconds. */
async function ingestMonth(server: BenchServer, subscriberId: number, days: number): Promise<number> {
  const total = days * FIXES_PER_DAY;
  let batch: LocationInput[] = [];
  let [stored, reported, ms] = [0, 0, 0];
  const post = async () => {
    ms += await elapsedMs(() => server.services.positioning.ingestBatch(server.account, batch));
    stored += batch.length;
    batch = [];
    if (stored - reported >= total / 10 || stored === total) {
      reported = stored;
      process.stderr.write(`  ingested ${fmt(stored)} / ${fmt(total)} fixes (day ${Math.ceil(stored / FIXES_PER_DAY)}), ${fmt(stored / (ms / 1000))} fixes/s\n`);
    }
  };
  for (const fix of vehicleDays(MONTH_START_MS, days)) {
    batch.push({ ...fix, subscriberID: subscriberId });
    if (batch.length === BATCH) await post();
  }
  if (batch.length) await post();
  return ms;
}

interface Timed {
  name: string;
  run: () => Promise<unknown>;
  samples: number[];
}

type Summary = { median: number; p95: number };

function summary(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
}

/** Warm-up, then `runs` rounds; each round runs every request once, starting one further along each time. */
async function measure(timed: Timed[], runs: number, warmup = WARMUP_RUNS): Promise<void> {
  for (let round = 0; round < warmup; round++) for (const t of timed) await t.run();
  await pause();
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < timed.length; k++) {
      const t = timed[(round + k) % timed.length]!;
      t.samples.push(await elapsedMs(t.run));
    }
  }
}

const ms = (value: number) => (value < 1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value.toFixed(1));

async function main(): Promise<void> {
  const runs = flagValue('--runs', 200);
  const days = flagValue('--days', 31);
  const cleanup = new Cleanup();
  try {
    const { database, store } = await serverStore(tempDir(cleanup), cleanup);
    const server = await startServer(database, 1, cleanup);
    const vehicle = server.employeeIds[0]!;
    const fixes = days * FIXES_PER_DAY;

    process.stderr.write(`statistics: storing ${fmt(fixes)} fixes of ${days} days through LocationService.ingestBatch, ${BATCH} per batch…\n`);
    const ingestMs = await ingestMonth(server, vehicle, days);
    const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM locations`.execute(database.db);
    if (Number(rows[0]!.n) !== fixes) throw new Error(`the server stored ${rows[0]!.n} of ${fixes} fixes`);

    // The period: the whole month, from the first day's midnight to the last day's last second.
    const dateFrom = iso(MONTH_START_MS);
    const dateTo = iso(MONTH_START_MS + days * DAY_MS - 1000);
    const statisticsUrl = (interval: number, extra = '') =>
      `${STATISTICS}?subscriberIDs=${vehicle}&interval=${interval}&dateFrom=${dateFrom}&dateTo=${dateTo}${extra}`;
    const middle = await database.db.selectFrom('locations').select('id').orderBy('id').offset(Math.floor(fixes / 2)).limit(1).executeTakeFirstOrThrow();
    const headers = { authorization: `Bearer ${server.token}` };
    const get = async (url: string) => {
      const response = await server.app.inject({ method: 'GET', url, headers });
      if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode} ${response.body}`);
      return response;
    };

    // A long-running PostgreSQL has statistics (autovacuum analyzes a table this size within a
    // minute or so); a freshly loaded one has none, and its plans can be far worse. The bench
    // measures a few requests as loaded, for information, then runs ANALYZE and measures.
    let unanalyzed: string | null = null;
    if (database.dialect === 'postgres') {
      const before: Timed[] = [1, 2, 3].map((interval) => ({ name: `interval=${interval}`, run: () => get(statisticsUrl(interval, '&count=1000')), samples: [] }));
      await measure(before, UNANALYZED_RUNS, 1);
      unanalyzed = before.map((t) => `${t.name} ${ms(summary(t.samples).median)} ms`).join(', ');
      await sql`ANALYZE`.execute(database.db);
    }

    // What the month adds up to, so a reader can see the data is a working vehicle's.
    type StatisticsBody = { data: { statistics: { mileage: number; fuelConsumption: number; engineMotohours: number; endFuelLevel: number | null }[] }[] };
    const records = (body: string) => (JSON.parse(body) as StatisticsBody).data[0]?.statistics ?? [];
    const [month] = records((await get(statisticsUrl(1))).body);
    const hourly = records((await get(statisticsUrl(2, '&count=1000'))).body).length;
    const perFix = records((await get(statisticsUrl(3, '&count=1000'))).body).length;
    const tracks = (await get(`${POSITIONING}/tracks?subscriberIDs=${vehicle}&dateFrom=${dateFrom}&dateTo=${dateTo}&count=1000`)).json<Track[]>();
    const events = (await get(`${POSITIONING}/events?subscriberIDs=${vehicle}&startDate=${dateFrom}&finishDate=${dateTo}&count=1000`)).json<Static<typeof VehicleEvents>>();
    const byType = new Map<number, number>();
    for (const e of events.data[0]?.events ?? []) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
    if (!month) throw new Error('interval=1 answered no record');

    // Two phases, each interleaved: every round runs each request of the phase once, in a rotating
    // order, so that drift of a noisy machine hits them alike. The headline pair runs apart from
    // intervals 2 and 3, whose garbage (hundreds of records per answer) would otherwise land in
    // the headline's p95 through the collector.
    const headline: Timed[] = [
      { name: 'interval=1', run: () => get(statisticsUrl(1)), samples: [] },
      { name: 'reference', run: () => get(`${LOCATIONS}/${middle.id}`), samples: [] },
      {
        name: 'select',
        run: () => database.db.selectFrom('locations').selectAll().where('id', '=', middle.id).executeTakeFirstOrThrow(),
        samples: [],
      },
    ];
    const heavier: Timed[] = [
      { name: 'interval=2', run: () => get(statisticsUrl(2, '&count=1000')), samples: [] },
      { name: 'interval=3', run: () => get(statisticsUrl(3, '&count=1000')), samples: [] },
    ];
    await measure(headline, runs);
    await measure(heavier, runs);
    const [s1, reference, select, s2, s3] = [...headline, ...heavier].map((t) => summary(t.samples)) as [Summary, Summary, Summary, Summary, Summary];

    const eventText = [...byType].sort(([a], [b]) => a - b).map(([type, n]) => `${n} of type ${type}`).join(', ') || 'none';
    console.log(
      `statistics on ${store}${database.dialect === 'postgres' ? ', ANALYZE after loading' : ''}: 1 vehicle, ${days} days of 10-s fixes (${fmt(fixes)}), stored in ${(ingestMs / 1000).toFixed(1)} s ` +
        `(${fmt(fixes / (ingestMs / 1000))} fixes/s) through LocationService.ingestBatch, ${BATCH} per batch`,
    );
    console.log(
      `  the month: ${tracks.length} tracks, events ${eventText}; interval=1 says mileage ${month.mileage} km, ` +
        `fuel ${month.fuelConsumption} L, engine ${month.engineMotohours} h, ${hourly} hourly records`,
    );
    console.log(`  requests through app.inject (no socket), ${runs} runs each after ${WARMUP_RUNS} warm-up, in two interleaved phases; period ${dateFrom} … ${dateTo}`);
    const line = (name: string, s: Summary, withRatio = true) =>
      `  ${name.padEnd(52)} median ${ms(s.median).padStart(7)} ms · p95 ${ms(s.p95).padStart(7)} ms` +
      (withRatio ? ` · ratio ${ratio(s.median, reference.median)}` : '');
    console.log(line('statistics interval=1', s1));
    console.log(line(`statistics interval=2 count=1000 (${hourly} records)`, s2));
    console.log(line(`statistics interval=3 count=1000 (${perFix} records)`, s3));
    console.log(line('reference: GET …/locations/{id}', reference, false));
    console.log(line('(info) SELECT * FROM locations WHERE id = ? (Kysely)', select, false));
    if (unanalyzed) console.log(`  (info) before ANALYZE, medians of ${UNANALYZED_RUNS}: ${unanalyzed}`);
    console.log(
      `statistics: interval=1 over ${days} days ${ms(s1.median)} ms (p95 ${ms(s1.p95)} ms) · GET …/locations/{id} ${ms(reference.median)} ms · ` +
        `ratio ${ratio(s1.median, reference.median)} (target < ${TARGET_MS} ms on this machine)`,
    );
  } finally {
    await cleanup.run();
  }
}

runBench('bench:statistics', main);
