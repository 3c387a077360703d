// The account's own name, time zone and language (CONTRACT §7): read and changed in the v6
// conventions, bad input refused with nothing changed, and what a new zone does to stored hourly
// statistics and to scheduled reports (docs/coordinators/time-zones.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged } from '../helpers/bad-input.js';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const ACCOUNT = '/v6/api/accountManagement/account';
const STATISTICS = '/v6/api/globalPositioningManagement/statistics';
const SCHEDULES = '/v6/api/reports/schedules';
const NOW = Date.parse('2026-05-21T07:00:00Z');

/** A drive from 10:40 to 11:20 UTC on 20 May: two clock hours in UTC, one in Kolkata (16:10–16:50). */
function drive(subscriberID: number) {
  const fromMs = Date.parse('2026-05-20T10:40:00Z');
  return Array.from({ length: 41 }, (_, i) => ({
    subscriberID,
    locationDate: new Date(fromMs + i * 60_000).toISOString(),
    latitude: 55.75,
    longitude: 37.6 + i * 0.01,
    velocity: 40,
    ignition: true,
  }));
}

for (const dialect of dialects) {
  describe(`account settings (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { now: NOW });
    });
    after(() => server.close());

    it('reads the first start’s defaults, changes only the fields given, and marks them confirmed', async () => {
      const first = await server.api.get(ACCOUNT);
      assert.equal(first.status, 200);
      assert.deepEqual(first.body, { accountID: server.account.id, name: 'Test account', timeZone: 'UTC', locale: 'en', settingsConfirmed: false, twoFactorRequired: false });

      const patched = await server.api.patch(ACCOUNT, { timeZone: 'europe/moscow', locale: 'ru' });
      assert.equal(patched.status, 204, patched.text);
      assert.deepEqual((await server.api.get(ACCOUNT)).body, {
        accountID: server.account.id,
        name: 'Test account',
        timeZone: 'Europe/Moscow',
        locale: 'ru',
        settingsConfirmed: true,
        twoFactorRequired: false,
      });
      assert.equal((await server.api.patch(ACCOUNT, { name: '  Courier service  ' })).status, 204);
      const named = (await server.api.get(ACCOUNT)).body;
      assert.deepEqual([named.name, named.timeZone, named.locale], ['Courier service', 'Europe/Moscow', 'ru']);

      // Every date-time without an offset now means Moscow time.
      const stranger = await server.newAccount();
      assert.equal((await stranger.api.get(ACCOUNT)).body.timeZone, 'UTC', 'another account is untouched');
    });

    it('refuses a zone Intl does not know, an offset, a language other than ru or en, and an empty name, changing nothing', async () => {
      const read = async () => (await server.api.get(ACCOUNT)).body;
      const cases: [unknown, number, string][] = [
        [{ timeZone: 'Mars/Olympus_Mons' }, 2, 'timeZone'],
        [{ timeZone: '+03:00' }, 2, 'timeZone'],
        [{ timeZone: 3 }, 2, 'timeZone'],
        [{ timeZone: '' }, 52, 'timeZone'],
        [{ locale: 'de' }, 2, 'locale'],
        [{ locale: 'RU' }, 2, 'locale'],
        [{ name: '' }, 52, 'name'],
        [{ name: '   ' }, 52, 'name'],
        [{ name: null }, 52, 'name'],
        [{ name: 'x'.repeat(201) }, 2, 'name'],
        [{ name: 'Fine', timeZone: 'Nowhere/City' }, 2, 'timeZone'],
      ];
      for (const [body, code, field] of cases) {
        await assertRefusedUnchanged(read, () => server.api.patch(ACCOUNT, body), { code, field }, JSON.stringify(body));
      }
    });

    it('a new zone re-cuts the stored hourly statistics, the past included, into its own hours', async () => {
      const car = await createEmployee(server.api, { name: 'Van 3' });
      assert.equal((await server.api.patch(ACCOUNT, { timeZone: 'UTC' })).status, 204);
      assert.equal((await server.api.post(LOCATIONS, drive(car))).status, 201);
      const hourly = async () => {
        const r = await server.api.get(`${STATISTICS}?subscriberIDs=${car}&interval=2&dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-21T00:00:00Z`);
        assert.equal(r.status, 200, r.text);
        return r.body.data[0].statistics.map((s: { locationDate: string }) => s.locationDate);
      };
      assert.deepEqual(await hourly(), ['2026-05-20T10:59:00+00:00', '2026-05-20T11:20:00+00:00'], 'two UTC hours');
      assert.equal((await server.api.patch(ACCOUNT, { timeZone: 'Asia/Kolkata' })).status, 204);
      assert.deepEqual(await hourly(), ['2026-05-20T16:50:00+05:30'], 'one Kolkata hour, from the same stored buckets');
    });

    it('a scheduled report sends once more at the instant set in the old zone, then at its time in the new one', async () => {
      assert.equal((await server.api.patch(ACCOUNT, { timeZone: 'UTC' })).status, 204);
      const created = await server.api.post(SCHEDULES, { name: 'Day', report: 'summary', recipients: ['fleet@example.test'], frequency: 'daily', time: '08:00' });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.nextSendDate, '2026-05-21T08:00:00+00:00');
      const id = created.body.reportScheduleID;

      assert.equal((await server.api.patch(ACCOUNT, { timeZone: 'Europe/Moscow' })).status, 204);
      const pending = (await server.api.get(`${SCHEDULES}/${id}`)).body;
      assert.equal(pending.nextSendDate, '2026-05-21T11:00:00+03:00', 'the occurrence already planned keeps its instant');

      server.setNow(Date.parse('2026-05-21T08:00:00Z'));
      await server.services.reports.scheduler.tick();
      const next = (await server.api.get(`${SCHEDULES}/${id}`)).body;
      assert.equal(next.nextSendDate, '2026-05-22T08:00:00+03:00', 'the next one is at 08:00 Moscow time');
    });
  });
}
