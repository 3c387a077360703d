import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaultVehicleSettings } from '../../../src/employees/employee-schema.js';
import { AddressResolver } from '../../../src/positioning/address-resolver.js';
import type { Fix } from '../../../src/positioning/fix.js';
import { PipelineRunner, type BatchContext } from '../../../src/positioning/pipeline/pipeline-runner.js';
import { PipelineStore } from '../../../src/positioning/pipeline/pipeline-store.js';
import { defaultTrackSettings } from '../../../src/positioning/pipeline/pipeline-types.js';
import { createEmployee, startServer, type TestServer } from '../../helpers/server.js';
import { dialects } from '../../helpers/stores.js';
import { HOUR, MOSCOW, move, T0 } from './fixtures.js';

const DAY = 24 * HOUR;
/** How long a subscriber's checkpoints are kept before its newest (pipeline-store.ts). */
const KEPT_MS = 8 * DAY;

/**
 * The pipeline takes a checkpoint at every hour a subscriber's fixes cross, so that a late fix
 * replays from the hour before it, and drops those older than eight days before the subscriber's
 * newest (a replay reaches back seven). A batch drops them for all its subscribers in one
 * statement: nothing a replay may still start from goes, for any of them, whatever the others'
 * newest checkpoints are.
 */
for (const dialect of dialects) {
  describe(`pipeline checkpoints kept and dropped on ${dialect}`, () => {
    let server: TestServer;
    let runner: PipelineRunner;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'UTC', now: T0 + 30 * DAY });
      runner = new PipelineRunner({ store: new PipelineStore(server.database), addresses: new AddressResolver(server.services.geozones) });
    });
    after(async () => server?.close());

    /** A fix every hour from hour `from` to hour `to` (exclusive), a kilometre east each time. */
    const hourly = (subscriberId: number, from: number, to: number): Fix[] =>
      Array.from({ length: to - from }, (_, i) => {
        const hour = from + i;
        const at = move(MOSCOW, hour * 1000, 90);
        return {
          subscriberId, locationDateMs: T0 + hour * HOUR, isValid: true, latitude: at.lat, longitude: at.lon, angle: 90, velocityKmh: 30,
          fuelLevel: null, ignition: true, externalPower: null, odometer: null, engineHours: null, sensors: null,
        };
      });

    const ingest = (fixes: Fix[]) => {
      const subscriberIds = [...new Set(fixes.map((f) => f.subscriberId))];
      const context: BatchContext = {
        accountId: server.account.id,
        timeZone: 'UTC',
        receivedAt: T0 + 30 * DAY,
        trackSettings: defaultTrackSettings,
        vehicleSettings: new Map(subscriberIds.map((id) => [id, defaultVehicleSettings])),
      };
      return server.database.transaction((tx) => runner.ingest(tx, context, fixes));
    };

    /** The subscriber's checkpoint instants, ascending. */
    const checkpoints = async (subscriberId: number) =>
      (
        await server.database.db
          .selectFrom('pipeline_checkpoints')
          .select('at_ms')
          .where('account_id', '=', server.account.id)
          .where('subscriber_id', '=', subscriberId)
          .orderBy('at_ms')
          .execute()
      ).map((r) => Number(r.at_ms));

    /** Every hour from `fromMs` to `toMs`, both included. */
    const hoursFrom = (fromMs: number, toMs: number) => Array.from({ length: (toMs - fromMs) / HOUR + 1 }, (_, i) => fromMs + i * HOUR);

    it('drops checkpoints older than eight days before each subscriber\'s newest, never one a replay may start from', async () => {
      const [ahead, behind] = [await createEmployee(server.api, { name: 'Ahead' }), await createEmployee(server.api, { name: 'Behind' })];
      // Ten days of hourly fixes for one, three for the other, in one batch: a checkpoint at every
      // hour of each. Whatever is dropped, each keeps every hour of its last eight days.
      await ingest([...hourly(ahead, 0, 240), ...hourly(behind, 0, 72)]);
      const aheadNewest = T0 + 239 * HOUR;
      assert.deepEqual(await checkpoints(behind), hoursFrom(T0, T0 + 71 * HOUR));
      const aheadKept = await checkpoints(ahead);
      assert.deepEqual(
        aheadKept.filter((at) => at >= aheadNewest - KEPT_MS),
        hoursFrom(aheadNewest - KEPT_MS, aheadNewest),
      );

      // Two more days of the one behind, alone: it has five days, so it keeps them all; the one
      // ahead, not in the batch, keeps what it had.
      await ingest(hourly(behind, 72, 120));
      assert.deepEqual(await checkpoints(behind), hoursFrom(T0, T0 + 119 * HOUR));
      assert.deepEqual(await checkpoints(ahead), aheadKept);

      // Five more days of the one behind, and an hour more of the one ahead, in one batch: the
      // batch drops what lies eight days before the earlier of their newest (hour 239), so the one
      // behind keeps exactly its last eight days, and the one ahead those and one hour more.
      await ingest([...hourly(behind, 120, 240), ...hourly(ahead, 240, 241)]);
      assert.deepEqual(await checkpoints(behind), hoursFrom(T0 + 239 * HOUR - KEPT_MS, T0 + 239 * HOUR));
      assert.deepEqual(await checkpoints(ahead), hoursFrom(T0 + 239 * HOUR - KEPT_MS, T0 + 240 * HOUR));

      // An hour more of the one ahead, alone: that hour goes too.
      await ingest(hourly(ahead, 241, 242));
      assert.deepEqual(await checkpoints(ahead), hoursFrom(T0 + 241 * HOUR - KEPT_MS, T0 + 241 * HOUR));
    });

    it('a late fix six days back still replays from the hour before it', async () => {
      const vehicle = await createEmployee(server.api, { name: 'Late' });
      await ingest(hourly(vehicle, 0, 240).filter((fix) => fix.locationDateMs !== T0 + 100 * HOUR));
      const late = hourly(vehicle, 100, 101);
      await ingest(late);
      const { rows } = await server.database.db
        .selectFrom('locations')
        .select(['location_date', 'cum_distance_m'])
        .where('subscriber_id', '=', vehicle)
        .where('location_date', 'in', [T0 + 99 * HOUR, T0 + 100 * HOUR, T0 + 101 * HOUR])
        .orderBy('location_date')
        .execute()
        .then((r) => ({ rows: r }));
      // Replayed: the late fix carries its running distance, between its neighbours'.
      assert.equal(rows.length, 3);
      assert.ok(rows[1]!.cum_distance_m !== null, 'the late fix was run through the pipeline');
      assert.ok(rows[0]!.cum_distance_m! < rows[1]!.cum_distance_m! && rows[1]!.cum_distance_m! < rows[2]!.cum_distance_m!);
    });
  });
}
