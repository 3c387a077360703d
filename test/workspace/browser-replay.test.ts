// Replay in the browser, in English and in Russian: a van's last hour posted through the API, opened
// from its card on the fleet map, played (its marker moves), scrubbed with the slider (the chart's
// cursor and the marker follow to where the posted fixes put it), moved from the chart (the slider
// and the marker follow), and downloaded as GPX holding the posted fixes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { COORDINATOR, needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { descendants, parseXml } from '../helpers/xml.js';
import { foreignText, readPage } from './workspace-text.js';

// Functions given to page.evaluate run in the page; the tests compile without DOM types.
declare const document: any;
declare const location: { hash: string };

const TIME_ZONE = 'Europe/Moscow';
const MINUTE = 60_000;
const GPX = '{http://www.topografix.com/GPX/1/1}';

interface Fix {
  subscriberID: number;
  locationDate: string;
  latitude: number;
  longitude: number;
  velocity: number;
}

/**
 * From 50 to 5 minutes ago: parked, a drive east at 72 km/h (over the van's 60 km/h limit), parked,
 * a drive north; a fix every 10 s.
 */
function lastHour(subscriberID: number, nowMs: number): Fix[] {
  const fixes: Fix[] = [];
  const start = Math.floor((nowMs - 50 * MINUTE) / 10_000) * 10_000;
  let lat = 55.75;
  let lon = 37.6;
  const metresLon = 1 / (111_320 * Math.cos((lat * Math.PI) / 180));
  const metresLat = 1 / 110_540;
  const legs = [
    { minutes: 5, kmh: 0, east: 0, north: 0 },
    { minutes: 15, kmh: 72, east: 1, north: 0 },
    { minutes: 10, kmh: 0, east: 0, north: 0 },
    { minutes: 15, kmh: 45, east: 0, north: 1 },
  ];
  let t = start;
  for (const leg of legs) {
    for (let i = 0; i < leg.minutes * 6; i++) {
      fixes.push({ subscriberID, locationDate: new Date(t).toISOString(), latitude: Number(lat.toFixed(7)), longitude: Number(lon.toFixed(7)), velocity: leg.kmh });
      const metres = (leg.kmh / 3.6) * 10;
      lat += leg.north * metres * metresLat;
      lon += leg.east * metres * metresLon;
      t += 10_000;
    }
  }
  return fixes;
}

/** The test's own interpolation: the posted fixes either side of the moment, a straight line in time. */
function expectedAt(fixes: Fix[], timeMs: number): { lat: number; lng: number } {
  const times = fixes.map((f) => Date.parse(f.locationDate));
  if (timeMs <= times[0]!) return { lat: fixes[0]!.latitude, lng: fixes[0]!.longitude };
  const after = times.findIndex((ms) => ms > timeMs);
  if (after === -1) return { lat: fixes.at(-1)!.latitude, lng: fixes.at(-1)!.longitude };
  const a = fixes[after - 1]!;
  const b = fixes[after]!;
  const share = (timeMs - times[after - 1]!) / (times[after]! - times[after - 1]!);
  return { lat: a.latitude + (b.latitude - a.latitude) * share, lng: a.longitude + (b.longitude - a.longitude) * share };
}

/** The centre of the van's marker and where a coordinate is drawn, both in page pixels. */
async function markerCentre(page: Page, id: number): Promise<{ x: number; y: number }> {
  return page.evaluate((subscriberID) => {
    const box = document.querySelector(`.replay-marker[data-subscriber-id="${subscriberID}"] .replay-dot`).getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }, id);
}
async function pixelOf(page: Page, point: { lat: number; lng: number }): Promise<{ x: number; y: number }> {
  return page.evaluate(({ lat, lng }) => {
    const element = document.querySelector('.replay-view .map');
    const rect = element.getBoundingClientRect();
    const { x, y } = element.leafletMap.latLngToContainerPoint([lat, lng]);
    return { x: x + rect.left + element.clientLeft, y: y + rect.top + element.clientTop };
  }, point);
}

/** Where the van's marker is drawn, as a coordinate (valid once the map has stopped moving). */
async function markerLatLng(page: Page, id: number): Promise<{ lat: number; lng: number }> {
  return page.evaluate((subscriberID) => {
    const element = document.querySelector('.replay-view .map');
    const rect = element.getBoundingClientRect();
    const box = document.querySelector(`.replay-marker[data-subscriber-id="${subscriberID}"] .replay-dot`).getBoundingClientRect();
    const { lat, lng } = element.leafletMap.containerPointToLatLng([box.left + box.width / 2 - rect.left - element.clientLeft, box.top + box.height / 2 - rect.top - element.clientTop]);
    return { lat, lng };
  }, id);
}

/** Metres between two coordinates, near enough for tens of metres. */
const metres = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  Math.hypot((a.lat - b.lat) * 110_540, (a.lng - b.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180));

/**
 * Paused, the marker stands where the posted fixes put the employee at the slider's time; the
 * pixels agree only once the map has stopped moving (its first fit animates), so this waits for that too.
 */
async function standsAtSliderTime(page: Page, id: number, fixes: Fix[], slider: string): Promise<{ lat: number; lng: number }> {
  let expected = { lat: 0, lng: 0 };
  await until(async () => {
    expected = expectedAt(fixes, Number(await page.getByRole('slider', { name: slider }).inputValue()));
    const [at, there] = await Promise.all([markerCentre(page, id), pixelOf(page, expected)]);
    return Math.hypot(at.x - there.x, at.y - there.y) < 3;
  }, 'the marker stands at the slider’s time');
  return expected;
}

/** Polls `check` until it holds or the deadline passes. */
async function until(check: () => Promise<boolean>, what: string, deadlineMs = 15_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const LANGUAGES = [
  {
    language: 'en' as const,
    name: 'Olga "Van 12" <Smirnova> & Co',
    replay: 'Replay the last hour',
    play: 'Play',
    pause: 'Pause',
    slider: 'Replay time',
    speeding: 'Speeding',
  },
  {
    language: 'ru' as const,
    name: 'ООО «Рога & Копыта» <фургон 7>',
    replay: 'Воспроизвести последний час',
    play: 'Пуск',
    pause: 'Пауза',
    slider: 'Время воспроизведения',
    speeding: 'Превышение скорости',
  },
];

LANGUAGES.forEach((words, index) => {
  // English on the first store, Russian on the other (or on SQLite again without PostgreSQL).
  const dialect = dialects[index % dialects.length]!;
  describe(`workspace in the browser: replay in ${words.language} (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    let van: number;
    let fixes: Fix[];
    let second: number;
    let secondFixes: Fix[];

    before(async () => {
      workspace = await openWorkspace({ dialect, timeZone: TIME_ZONE, ...(words.language === 'ru' ? { locale: 'ru-RU' } : {}) });
      const { api } = workspace.server;
      van = await createEmployee(api, { name: words.name, vehicleSettings: { speedLimit: 60, prolongedSpeedSeconds: 60 } });
      fixes = lastHour(van, Date.now());
      const posted = await api.post(LOCATIONS, fixes);
      assert.equal(posted.status, 201, posted.text);
      // A second van on a parallel road 2 km north.
      second = await createEmployee(api, { name: words.language === 'ru' ? 'Пётр Орлов' : 'Pyotr Orlov' });
      secondFixes = fixes.map((f) => ({ ...f, subscriberID: second, latitude: Number((f.latitude + 0.018).toFixed(7)) }));
      assert.equal((await api.post(LOCATIONS, secondFixes)).status, 201);
      if (words.language === 'ru') {
        const { page } = workspace;
        await page.goto('/');
        await page.getByLabel('Логин').fill(COORDINATOR.login);
        await page.getByLabel('Пароль').fill(COORDINATOR.password);
        await page.getByRole('button', { name: 'Войти' }).click();
        await page.getByRole('navigation', { name: 'Разделы' }).waitFor();
      }
    });
    after(() => workspace?.close());

    test('the card opens the last hour, playing; play moves the marker; the slider and the chart move each other and the marker', async () => {
      const { page } = workspace;
      await page.goto('/#/map');
      await page.locator('.employee-row').filter({ hasText: words.name }).click();
      await page.locator('.employee-card').getByRole('link', { name: words.replay }).click();
      // The pointer left where the card was: off the page, so it rests on nothing of the replay.
      await page.mouse.move(0, 0);
      await page.waitForFunction((id) => new RegExp(`^#/tracks/replay/${id}/\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d/\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d/play$`).test(location.hash), van);
      const marker = page.locator(`.replay-marker[data-subscriber-id="${van}"]`);
      await marker.waitFor();
      assert.equal(await marker.locator('.replay-name').textContent(), words.name, 'the name is shown as written, not as markup');

      // It opened playing; paused, then played again, the marker moves along the line.
      const pause = page.getByRole('button', { name: words.pause });
      await pause.waitFor();
      await pause.click();
      const from = await standsAtSliderTime(page, van, fixes, words.slider);
      await page.getByRole('button', { name: words.play }).click();
      await until(async () => metres(await markerLatLng(page, van), from) > 50, 'the marker moves while playing');
      await page.getByRole('button', { name: words.pause }).click();
      await page.getByRole('button', { name: words.play }).waitFor();

      // The period's stops and events are on the map: speeding happened on the first drive.
      assert.ok((await page.locator('.replay-view .stop-marker').count()) >= 2);
      assert.ok((await page.locator('.replay-view path.replay-event-vehicle').count()) >= 1);

      // The slider and the chart span the data: the first fix to the last, not a whole day.
      const slider = page.getByRole('slider', { name: words.slider });
      const minMs = Number(await slider.getAttribute('min'));
      const maxMs = Number(await slider.getAttribute('max'));
      assert.equal(minMs, Date.parse(fixes[0]!.locationDate));
      assert.equal(maxMs, Date.parse(fixes.at(-1)!.locationDate));

      // Dragging the slider to about 60 % moves the chart's cursor and the marker there.
      const track = (await slider.boundingBox())!;
      await page.mouse.move(track.x + track.width * 0.1, track.y + track.height / 2);
      await page.mouse.down();
      await page.mouse.move(track.x + track.width * 0.4, track.y + track.height / 2, { steps: 5 });
      await page.mouse.move(track.x + track.width * 0.6, track.y + track.height / 2, { steps: 5 });
      await page.mouse.up();
      const dragged = Number(await slider.inputValue());
      assert.ok(dragged > minMs + (maxMs - minMs) * 0.45 && dragged < minMs + (maxMs - minMs) * 0.75, `the slider moved: ${dragged}`);
      await until(async () => {
        const { cursor, over } = await page.evaluate(() => ({
          cursor: document.querySelector('.replay-chart .u-cursor-x').getBoundingClientRect().left,
          over: document.querySelector('.replay-chart .u-over').getBoundingClientRect(),
        }));
        const expected = over.left + ((dragged - minMs) / (maxMs - minMs)) * over.width;
        return Math.abs(cursor - expected) < 3;
      }, 'the chart cursor stands at the slider’s time');
      await until(async () => {
        const [at, expected] = await Promise.all([markerCentre(page, van), pixelOf(page, expectedAt(fixes, dragged))]);
        return Math.hypot(at.x - expected.x, at.y - expected.y) < 3;
      }, 'the marker stands where the posted fixes put the van at the slider’s time');

      // Moving over the chart at 30 % moves the slider and the marker there.
      await page.locator('.replay-chart .u-over').scrollIntoViewIfNeeded();
      const over = (await page.locator('.replay-chart .u-over').boundingBox())!;
      await page.mouse.move(over.x + over.width * 0.3, over.y + over.height / 2, { steps: 3 });
      const expectedMs = minMs + (maxMs - minMs) * 0.3;
      await until(async () => Math.abs(Number(await slider.inputValue()) - expectedMs) < (2 * (maxMs - minMs)) / over.width + 1000, 'the slider follows the chart');
      const chartMs = Number(await slider.inputValue());
      await until(async () => {
        const [at, expected] = await Promise.all([markerCentre(page, van), pixelOf(page, expectedAt(fixes, chartMs))]);
        return Math.hypot(at.x - expected.x, at.y - expected.y) < 4;
      }, 'the marker follows the chart');
      await page.mouse.move(0, 0);

      // A speeding event says what it is in a popup.
      await page.locator('.replay-view path.replay-event-vehicle').first().dispatchEvent('click');
      await page.locator('.leaflet-popup-content').filter({ hasText: words.speeding }).waitFor();
      assert.deepEqual(foreignText(await readPage(page), words.language), []);
      await workspace.screenshot(`replay-${words.language}`);
    });

    test('the shown tracks download as GPX with the posted fixes in UTC', async () => {
      const { page } = workspace;
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'GPX', exact: true }).click()]);
      assert.match(download.suggestedFilename(), /^tracks-\d{8}-\d{4}-\d{8}-\d{4}\.gpx$/);
      const gpx = parseXml(readFileSync((await download.path())!, 'utf8'));
      const [trk] = descendants(gpx, `${GPX}trk`);
      assert.ok(trk);
      assert.equal(trk.children.find((c) => c.name === `${GPX}name`)?.text, words.name);
      const points = descendants(trk, `${GPX}trkpt`);
      assert.ok(descendants(trk, `${GPX}trkseg`).length >= 2, 'a segment per drive');
      const posted = new Map(fixes.map((f) => [f.locationDate.replace('.000Z', 'Z'), f]));
      assert.ok(points.length > 100);
      for (const point of points) {
        const time = point.children.find((c) => c.name === `${GPX}time`)!.text;
        const fix = posted.get(time);
        assert.ok(fix, `${time} was posted`);
        assert.deepEqual([Number(point.attributes.lat), Number(point.attributes.lon)], [fix.latitude, fix.longitude]);
      }
    });

    test('two employees over a period typed in the form play together; a period the wrong way round is refused; it fits 375 px', async () => {
      const { page } = workspace;
      const local = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: TIME_ZONE, dateStyle: 'short', timeStyle: 'short' }).format(ms).replace(' ', 'T');
      const from = local(Date.now() - 55 * MINUTE);
      const to = local(Date.now() + MINUTE);
      await page.goto('/#/tracks/replay');
      const employees = words.language === 'ru' ? 'Сотрудники' : 'Employees';
      const [fromLabel, toLabel, showLabel] = words.language === 'ru' ? ['С', 'По', 'Показать'] : ['From', 'To', 'Show'];
      await page.getByLabel(employees, { exact: true }).selectOption([String(van), String(second)]);
      await page.getByLabel(fromLabel, { exact: true }).fill(to);
      await page.getByLabel(toLabel, { exact: true }).fill(from);
      await page.getByRole('button', { name: showLabel }).click();
      await page.getByRole('alert').filter({ hasText: words.language === 'ru' ? 'Начало периода должно быть раньше конца.' : 'The start of the period must be before its end.' }).waitFor();
      assert.equal(new URL(page.url()).hash, '#/tracks/replay');

      await page.getByLabel(fromLabel, { exact: true }).fill(from);
      await page.getByLabel(toLabel, { exact: true }).fill(to);
      await page.getByRole('button', { name: showLabel }).click();
      const ids = [van, second].sort((a, b) => a - b);
      await page.waitForFunction((hash) => decodeURIComponent(location.hash) === hash, `#/tracks/replay/${ids.join(',')}/${from}/${to}`);
      const markers = [van, second].map((id) => page.locator(`.replay-marker[data-subscriber-id="${id}"]`));
      for (const marker of markers) await marker.waitFor();
      assert.equal(await page.locator('.replay-chart .u-legend .u-series').count(), 3, 'time and a speed per employee');
      const slider = page.getByRole('slider', { name: words.slider });
      assert.equal(await slider.inputValue(), await slider.getAttribute('min'), 'a replay shown, not played, stands at its start');
      assert.equal(await page.getByRole('button', { name: words.play }).count(), 1);

      const before = [await standsAtSliderTime(page, van, fixes, words.slider), await standsAtSliderTime(page, second, secondFixes, words.slider)];
      await page.getByRole('button', { name: words.play }).click();
      await until(async () => {
        const now = [await markerLatLng(page, van), await markerLatLng(page, second)];
        return now.every((at, i) => metres(at, before[i]!) > 50);
      }, 'both markers move');
      await page.getByRole('button', { name: words.pause }).click();

      await page.setViewportSize({ width: 375, height: 812 });
      await page.locator('.replay-chart canvas').waitFor();
      const rights = await page.evaluate(() =>
        ['.tracks-page', '.replay-view .map', '.replay-chart canvas', '.replay-slider'].map((selector) => document.querySelector(selector).getBoundingClientRect().right),
      );
      for (const right of rights) assert.ok(right <= 375, `reaches ${right} px`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 375);
      await workspace.screenshot(`replay-375-${words.language}`);
      await page.setViewportSize({ width: 1280, height: 900 });
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
});
