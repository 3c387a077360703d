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
import { MOSCOW, move, T0 } from './fixtures.js';

/**
 * The pipeline keeps the states it wrote in memory (PipelineStateCache) and hands one back when
 * the stored text is the one it wrote. A batch whose transaction fails after the pipeline ran
 * (and changed that state in memory) must leave nothing behind: the batch sent again gives what
 * it would have given the first time.
 */
for (const dialect of dialects) {
  describe(`pipeline states kept in memory on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'UTC', now: T0 + 24 * 3_600_000 });
    });
    after(async () => server?.close());

    /** Ten fixes a minute apart from `fromMinute`, driving east at about 50 km/h. */
    const drive = (subscriberId: number, fromMinute: number): Fix[] =>
      Array.from({ length: 10 }, (_, i) => {
        const minute = fromMinute + i;
        const at = move(MOSCOW, minute * 830, 90);
        return {
          subscriberId, locationDateMs: T0 + minute * 60_000, isValid: true, latitude: at.lat, longitude: at.lon, angle: 90, velocityKmh: 50,
          fuelLevel: null, ignition: true, externalPower: null, odometer: null, engineHours: null, sensors: null,
        };
      });

    const context = (subscriberIds: number[]): BatchContext => ({
      accountId: server.account.id,
      timeZone: 'UTC',
      receivedAt: T0 + 24 * 3_600_000,
      trackSettings: defaultTrackSettings,
      vehicleSettings: new Map(subscriberIds.map((id) => [id, defaultVehicleSettings])),
    });

    const stateOf = async (subscriberId: number) =>
      (await server.database.db.selectFrom('pipeline_states').select('state').where('subscriber_id', '=', subscriberId).executeTakeFirstOrThrow()).state;
    const metricsOf = async (subscriberId: number) =>
      server.database.db
        .selectFrom('locations')
        .select(['location_date', 'cum_distance_m', 'cum_track_m', 'cum_engine_s'])
        .where('subscriber_id', '=', subscriberId)
        .orderBy('location_date')
        .execute();

    it('a batch rolled back after the pipeline ran leaves no trace in the next one', async () => {
      const runner = new PipelineRunner({ store: new PipelineStore(server.database), addresses: new AddressResolver(server.services.geozones) });
      const [failed, reference] = [await createEmployee(server.api, { name: 'Rolled back' }), await createEmployee(server.api, { name: 'Reference' })];
      const ingest = (subscriberId: number, fromMinute: number) =>
        server.database.transaction((tx) => runner.ingest(tx, context([subscriberId]), drive(subscriberId, fromMinute)));

      const metrics = async (subscriberId: number) =>
        (await metricsOf(subscriberId)).map(({ location_date, cum_distance_m, cum_track_m, cum_engine_s }) => [location_date, cum_distance_m, cum_track_m, cum_engine_s]);
      const assertSame = async () => {
        assert.equal(await stateOf(failed), await stateOf(reference));
        assert.deepEqual(await metrics(failed), await metrics(reference));
      };
      for (const id of [failed, reference]) await ingest(id, 0);
      // A batch failing in the pipeline's own writes (the database refuses a fix without a
      // latitude) after the state was changed in memory: the next batch goes on from what is stored.
      const refused = drive(failed, 10);
      refused[9] = { ...refused[9]!, latitude: null as unknown as number };
      await assert.rejects(server.database.transaction((tx) => runner.ingest(tx, context([failed]), refused)));
      for (const id of [failed, reference]) await ingest(id, 20);
      await assertSame();
      // The same for a batch failing after the pipeline wrote its state.
      await assert.rejects(
        server.database.transaction(async (tx) => {
          await runner.ingest(tx, context([failed]), drive(failed, 30));
          throw new Error('the transaction fails after the pipeline ran');
        }),
        /fails after the pipeline ran/,
      );
      for (const id of [failed, reference]) await ingest(id, 40);
      await assertSame();
      assert.equal((await metricsOf(failed)).length, 30);
    });

    it('a state another writer stored is read, not the one kept in memory', async () => {
      // Two runners on one database, as two servers are: each keeps its own memory.
      const [first, second] = [0, 1].map(() => new PipelineRunner({ store: new PipelineStore(server.database), addresses: new AddressResolver(server.services.geozones) }));
      const [shared, reference] = [await createEmployee(server.api, { name: 'Shared' }), await createEmployee(server.api, { name: 'Alone' })];
      const ingest = (runner: PipelineRunner, subscriberId: number, fromMinute: number) =>
        server.database.transaction((tx) => runner.ingest(tx, context([subscriberId]), drive(subscriberId, fromMinute)));
      await ingest(first!, shared, 0);
      await ingest(second!, shared, 10);
      await ingest(first!, shared, 20);
      for (const minute of [0, 10, 20]) await ingest(first!, reference, minute);
      assert.equal(await stateOf(shared), await stateOf(reference));
    });
  });
}
