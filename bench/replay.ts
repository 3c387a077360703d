/**
 * Late-fix replay: a vehicle's day of 10-second fixes (8,640) arrives in order except 12:00-13:00
 * (360 fixes), which a tracker kept in its buffer and sends after the rest of the day, as one
 * batch. The pipeline then replays the vehicle from the hourly checkpoint before 12:00 to the end
 * of the day. Timed against the same 360 fixes stored in order for a second vehicle that receives
 * the whole day in order (its 12:00-13:00 batch, when 12:00 is still its newest hour). Both go
 * through LocationService.ingestBatch, the server's own ingestion path. Then checks that the late
 * vehicle's tracks, events and statistics equal the in-order vehicle's. Asserts nothing.
 *
 *   npm run bench:replay                     # SQLite server
 *   npm run bench:replay -- --pg             # PostgreSQL server (DATABASE_URL, or a throwaway cluster)
 *   npm run bench:replay -- --rounds 15      # measured rounds (default 7, after 1 warm-up round)
 */
import type { LocationInput } from '../src/positioning/location-schema.js';
import type { Static } from 'typebox';
import type { Statistics, Track, VehicleEvents } from '../src/positioning/track-schema.js';
import type { Database } from '../src/store/database.js';
import { apiGet, Cleanup, elapsedMs, flagValue, fmt, iso, percentile, ratio, runBench, serverStore, startServer, tempDir, type BenchServer } from './common.js';
import { DAY_MS, FIXES_PER_DAY, vehicleDays, type VehicleFix } from './vehicle.js';

const POSITIONING = '/v6/api/globalPositioningManagement';

/** Thursday 1 October 2026: a working day; its 12:00-13:00 holds two drives with a stop between and a (prolonged) speeding. */
const DAY_START_MS = Date.UTC(2026, 9, 1);
const HOUR_MS = 3_600_000;
const LATE_HOUR = 12;
const WARMUP_ROUNDS = 1;

const timeOf = (fix: VehicleFix) => Date.parse(fix.locationDate);

interface Round {
  lateMs: number;
  inOrderMs: number;
  checkpointMs: number;
  replayed: number;
  tracksBefore: number;
  check: string | null;
}

/**
 * What a client can read about a vehicle's day, without ids: its tracks (by start), events and
 * statistics of all three intervals (interval 3 paged through every valid fix).
 */
async function dayAsSeen(server: BenchServer, subscriberId: number) {
  const dateFrom = iso(DAY_START_MS);
  const dateTo = iso(DAY_START_MS + DAY_MS - 1000);
  const tracks = (await apiGet<Track[]>(server, `${POSITIONING}/tracks?subscriberIDs=${subscriberId}&dateFrom=${dateFrom}&dateTo=${dateTo}&count=1000`))
    .map(({ trackID: _id, subscriberID: _sub, ...track }) => track)
    .sort((a, b) => a.startDate.localeCompare(b.startDate));
  const events = (await apiGet<Static<typeof VehicleEvents>>(server, `${POSITIONING}/events?subscriberIDs=${subscriberId}&startDate=${dateFrom}&finishDate=${dateTo}&count=1000`)).data.map(
    (group) => group.events,
  );
  const statistics = async (interval: number, offset = 0) =>
    (
      await apiGet<Static<typeof Statistics>>(server, `${POSITIONING}/statistics?subscriberIDs=${subscriberId}&interval=${interval}&dateFrom=${dateFrom}&dateTo=${dateTo}&count=1000&offset=${offset}`)
    ).data.flatMap((group) => group.statistics);
  const perFix = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await statistics(3, offset);
    perFix.push(...page);
    if (page.length < 1000) break;
  }
  return { tracks, events, daily: await statistics(1), hourly: await statistics(2), perFix };
}

/** The first place two JSON-able values differ, or null when they are equal. */
function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
  }
  return `${path || '(root)'}: late ${JSON.stringify(a)?.slice(0, 200)} · in order ${JSON.stringify(b)?.slice(0, 200)}`;
}

/** The hourly checkpoint a late fix at `lateMs` replays from: the latest at or before it. */
async function checkpointBefore(database: Database, subscriberId: number, lateMs: number): Promise<number | null> {
  const row = await database.db
    .selectFrom('pipeline_checkpoints')
    .select('at_ms')
    .where('subscriber_id', '=', subscriberId)
    .where('at_ms', '<=', lateMs)
    .orderBy('at_ms', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.at_ms) : null;
}

/**
 * One round on two fresh vehicles: `late` gets the day hour by hour without 12:00-13:00, then
 * that hour as one late batch (timed); `inOrder` gets every hour in order, its 12:00-13:00 batch
 * timed. The two take turns hour by hour, so their tables grow alike.
 */
async function round(server: BenchServer, database: Database, day: VehicleFix[], late: number, inOrder: number): Promise<Round> {
  const hours = Array.from({ length: 24 }, (_, hour) => day.filter((fix) => Math.floor((timeOf(fix) - DAY_START_MS) / HOUR_MS) === hour));
  const batch = (fixes: VehicleFix[], subscriberID: number): LocationInput[] => fixes.map((fix) => ({ ...fix, subscriberID }));
  const ingest = (fixes: LocationInput[]) => elapsedMs(() => server.services.positioning.ingestBatch(server.account, fixes));

  let inOrderMs = 0;
  for (let hour = 0; hour < 24; hour++) {
    if (hour !== LATE_HOUR) await ingest(batch(hours[hour]!, late));
    const ms = await ingest(batch(hours[hour]!, inOrder));
    if (hour === LATE_HOUR) inOrderMs = ms;
  }

  const lateFixes = batch(hours[LATE_HOUR]!, late);
  const earliestLateMs = Math.min(...lateFixes.map((fix) => Date.parse(fix.locationDate)));
  const checkpointMs = (await checkpointBefore(database, late, earliestLateMs)) ?? DAY_START_MS;
  const tracksBefore = (await apiGet<Track[]>(server, `${POSITIONING}/tracks?subscriberIDs=${late}&dateFrom=${iso(DAY_START_MS)}&dateTo=${iso(DAY_START_MS + DAY_MS)}&count=1000`)).length;
  const lateMs = await ingest(lateFixes);
  // The replay runs every stored fix of the vehicle from the checkpoint on, the late ones included.
  const replayed = day.filter((fix) => timeOf(fix) >= checkpointMs).length;

  const check = firstDifference(await dayAsSeen(server, late), await dayAsSeen(server, inOrder));
  return { lateMs, inOrderMs, checkpointMs, replayed, tracksBefore, check };
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

async function main(): Promise<void> {
  const rounds = flagValue('--rounds', 7);
  const cleanup = new Cleanup();
  try {
    const { database, store } = await serverStore(tempDir(cleanup), cleanup);
    const total = WARMUP_ROUNDS + rounds;
    const server = await startServer(database, 2 * total, cleanup);
    const day = [...vehicleDays(DAY_START_MS, 1)];
    if (day.length !== FIXES_PER_DAY) throw new Error(`the day has ${day.length} fixes`);
    const lateHour = day.filter((fix) => Math.floor((timeOf(fix) - DAY_START_MS) / HOUR_MS) === LATE_HOUR);

    const results: Round[] = [];
    for (let r = 0; r < total; r++) {
      const [late, inOrder] = [server.employeeIds[2 * r]!, server.employeeIds[2 * r + 1]!];
      const result = await round(server, database, day, late, inOrder);
      process.stderr.write(
        `  round ${r + 1}/${total}${r < WARMUP_ROUNDS ? ' (warm-up)' : ''}: late batch ${ms(result.lateMs)} ms, ` +
          `in-order batch ${ms(result.inOrderMs)} ms${result.check ? ' · MISMATCH' : ''}\n`,
      );
      results.push(result);
    }
    const measured = results.slice(WARMUP_ROUNDS);
    const late = median(measured.map((r) => r.lateMs));
    const inOrder = median(measured.map((r) => r.inOrderMs));
    const { checkpointMs, replayed, tracksBefore } = measured[0]!;
    const afterTracks = (await dayAsSeen(server, server.employeeIds[2 * WARMUP_ROUNDS]!)).tracks.length;
    const mismatches = results.filter((r) => r.check);
    const moving = lateHour.filter((fix) => (fix.velocity ?? 0) > 5).length;

    console.log(
      `replay on ${store}: 1 day of 10-s fixes (${fmt(day.length)}), ${LATE_HOUR}:00-${LATE_HOUR + 1}:00 (${lateHour.length} fixes, ${moving} moving) ` +
        `withheld and sent last as one batch; ${rounds} rounds on fresh vehicles after ${WARMUP_ROUNDS} warm-up, medians; through LocationService.ingestBatch`,
    );
    console.log(
      `  replay window: checkpoint ${iso(checkpointMs)} to the end of the day, ${fmt(replayed)} fixes replayed ` +
        `(${lateHour.length} late + ${fmt(replayed - lateHour.length)} stored)`,
    );
    console.log(`  late batch      ${ms(late).padStart(7)} ms · ${(late / replayed * 1000).toFixed(1)} µs per replayed fix · rounds ${measured.map((r) => ms(r.lateMs)).join(', ')}`);
    console.log(`  in-order batch  ${ms(inOrder).padStart(7)} ms · ${(inOrder / lateHour.length * 1000).toFixed(1)} µs per fix (reference) · rounds ${measured.map((r) => ms(r.inOrderMs)).join(', ')}`);
    console.log(`  per fix: a replayed fix costs ${ratio(late / replayed, inOrder / lateHour.length)} × an in-order fix`);
    console.log(
      mismatches.length === 0
        ? `  check: in all ${total} rounds the late vehicle's tracks, events and statistics (intervals 1, 2 and every fix of 3) equal the in-order vehicle's, ids aside; tracks ${tracksBefore} before the late batch, ${afterTracks} after`
        : `  check: MISMATCH in ${mismatches.length} of ${total} rounds; first: ${mismatches[0]!.check}`,
    );
    console.log(
      `replay: late batch of ${lateHour.length} ${ms(late)} ms (replays ${fmt(replayed)} fixes) · in-order batch of ${lateHour.length} ${ms(inOrder)} ms · ratio ${ratio(late, inOrder)}`,
    );
  } finally {
    await cleanup.run();
  }
}

runBench('bench:replay', main);
