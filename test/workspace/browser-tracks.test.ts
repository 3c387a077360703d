// The Tracks view in the browser: a realistic day of a van ingested through the API (two drives
// with a refuelling between them and a stretch over the limit on the second), then looked at in
// the workspace and compared with what the v6 routes say about the same day.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';
import { DEFAULT_DEPOT } from '../positioning/day-generator.js';
import { buildRoad, HOUR, MINUTE, SECOND, VehicleSimulation, type DayFix, type Leg } from '../positioning/vehicle-simulation.js';

// Functions given to page.evaluate run in the page; the tests compile without DOM types, so this names what they use.
interface Rect { width: number; height: number; right: number }
declare const document: { querySelector(selector: string): { getBoundingClientRect(): Rect; textContent: string | null } | null; documentElement: { scrollWidth: number } };
declare const location: { hash: string };
interface Canvas { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null }

const BASE = '/v6/api/globalPositioningManagement';
const TIME_ZONE = 'Europe/Moscow';
const DAY = '2026-05-20';
const DAY_START_MS = Date.parse(`${DAY}T00:00:00+03:00`);
const PERIOD = `dateFrom=${DAY}T00:00:00&dateTo=${DAY}T23:59:59.999`;
const VEHICLE = { speedLimit: 90, prolongedSpeedSeconds: 60, fuelFillThreshold: 10, fuelDrainThreshold: 10, sensorLimits: [], initialOdometer: 1200 };

/**
 * Parked at the depot until 07:30, a drive to a fuel station, 40 litres in, parked until 10:00,
 * then a longer drive with two minutes at 104 km/h, parked again until midnight. A fix every 10 s
 * with the ignition on, every 30 s off: more than 1000 fixes, so the view must page through them.
 */
function vanDay(): DayFix[] {
  const sim = new VehicleSimulation(20260520, DAY_START_MS, DEFAULT_DEPOT);
  // A van that starts the day with 45 litres: the simulation's first fix (a full tank) is dropped.
  sim.fuelL = 45;
  sim.fixes.length = 0;
  const at = (h: number, m: number) => DAY_START_MS + (h * 60 + m) * MINUTE;
  const trip = (name: string, legs: Leg[]) => {
    sim.setIgnition(true);
    sim.stand(60);
    sim.drive(name, buildRoad(sim.position, legs));
    sim.arrivePlace();
    sim.stand(30);
    sim.setIgnition(false);
  };
  sim.standUntil(at(7, 30));
  trip('depot → fuel station', [
    { metres: 1500, bearing: 90, kmh: 45 },
    { metres: 9000, bearing: 60, kmh: 75 },
    { metres: 1200, bearing: 120, kmh: 40 },
  ]);
  sim.stand(120);
  sim.pump(40, 180);
  sim.standUntil(at(10, 0));
  trip('fuel station → customer', [
    { metres: 2000, bearing: 200, kmh: 50 },
    { metres: 16_000, bearing: 250, kmh: 80, speeding: { from: 0.3, to: 0.5, kmh: 104 } },
    { metres: 1500, bearing: 300, kmh: 40 },
  ]);
  sim.standUntil(DAY_START_MS + 24 * HOUR - SECOND);
  return sim.fixes;
}

/** `HH:mm` of a date-time the API wrote in the account's zone (`…T08:05:00+03:00`). */
const moscowClock = (ms: number) => new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
const hhmm = (dateTime: string) => {
  assert.match(dateTime, /\+03:00$/);
  return dateTime.slice(11, 16);
};

async function rowsOf(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
}

const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).boundingBox();
  assert.ok(found, `${selector} is not on the page`);
  return found;
};

describe('workspace in the browser: the Tracks view', needsBrowser, () => {
  let workspace: Workspace;
  let vanID: number;
  let idleID: number;
  let fixes: DayFix[];
  let tracks: any[];
  let events: any[];

  before(async () => {
    workspace = await openWorkspace({ timeZone: TIME_ZONE });
    const { api } = workspace.server;
    vanID = await createEmployee(api, { name: 'Olga Smirnova (van 12)', vehicleSettings: VEHICLE });
    idleID = await createEmployee(api, { name: 'Pavel Orlov' });
    fixes = vanDay();
    for (let i = 0; i < fixes.length; i += 1000) {
      const batch = fixes.slice(i, i + 1000).map((f) => ({ subscriberID: vanID, ...f.body }));
      const response = await api.post(LOCATIONS, batch);
      assert.equal(response.status, 201, response.text);
    }
    tracks = (await api.get(`${BASE}/tracks?subscriberIDs=${vanID}&${PERIOD}`)).body;
    events = (await api.get(`${BASE}/events?subscriberIDs=${vanID}&${PERIOD.replace('dateFrom', 'startDate').replace('dateTo', 'finishDate')}`)).body.data[0]?.events ?? [];
  });
  after(() => workspace?.close());

  test('the generated day is what the test expects of it', () => {
    assert.ok(fixes.length > 2000, `${fixes.length} fixes`);
    assert.equal(tracks.length, 2, JSON.stringify(tracks));
    assert.deepEqual(events.map((e) => e.type), [1, 4, 5], JSON.stringify(events));
  });

  test('an employee and a day are picked; the hash keeps them; tables, map and chart show the day', async () => {
    const { page } = workspace;
    await page.goto('/#/tracks');
    const todayInMoscow = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(Date.now());
    assert.equal(await page.getByLabel('Day', { exact: true }).inputValue(), todayInMoscow, 'the day defaults to today in the account zone');
    await page.getByText('Choose an employee to see their day.').waitFor();

    await page.getByLabel('Employee', { exact: true }).selectOption({ label: 'Olga Smirnova (van 12)' });
    await page.getByLabel('Day', { exact: true }).fill(DAY);
    await page.waitForFunction((hash) => location.hash === hash, `#/tracks/${vanID}/${DAY}`);

    const tracksTable = page.getByRole('table', { name: /^Tracks/ });
    await tracksTable.waitFor();
    const trackRows = await rowsOf(tracksTable);
    assert.deepEqual(
      trackRows.map((cells) => [cells[1], cells[2], cells[3], cells[4], cells[5]]),
      tracks.map((t) => [hhmm(t.startDate), hhmm(t.finishDate), t.startAddress, t.finishAddress, (t.distance / 1000).toFixed(1)]),
      'the Tracks table has the distances of GET …/tracks',
    );

    // From the day's first valid fix to the first track, between the two, and from the last track
    // to the day's last valid fix: a stop lasts only as long as there is data, in the account zone.
    const stopRows = await rowsOf(page.getByRole('table', { name: 'Stops' }));
    const validMs = fixes.filter((f) => f.body.isValid).map((f) => Date.parse(f.body.locationDate));
    assert.deepEqual(
      stopRows.map((cells) => [cells[1], cells[2]]),
      [
        [moscowClock(Math.min(...validMs)), hhmm(tracks[0].startDate)],
        [hhmm(tracks[0].finishDate), hhmm(tracks[1].startDate)],
        [hhmm(tracks[1].finishDate), moscowClock(Math.max(...validMs))],
      ],
    );
    const parkedMinutes = Math.round((Date.parse(tracks[1].startDate) - Date.parse(tracks[0].finishDate)) / MINUTE);
    // Durations as Intl writes them in English (en-GB, short units).
    const unit = (value: number, name: string) => new Intl.NumberFormat('en-GB', { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
    const hours = unit(Math.floor(parkedMinutes / 60), 'hour');
    assert.equal(stopRows[1]![3], parkedMinutes % 60 === 0 ? hours : `${hours} ${unit(parkedMinutes % 60, 'minute')}`);

    const eventRows = await rowsOf(page.getByRole('table', { name: 'Events' }));
    assert.deepEqual(
      eventRows.map((cells) => [cells[1], cells[2]]),
      events.map((e, i) => [hhmm(e.eventDate), ['Fuel filling', 'Speeding', 'Prolonged speeding'][i]]),
    );
    assert.match(eventRows[0]![3]!, /^\d+\.\d l$/);
    assert.match(eventRows[1]![3]!, /^\d+ km\/h$/);

    // The map: a polyline per track, a marker per stop and per event, none of them image icons.
    const map = page.getByRole('region', { name: /^Map of the day/ });
    assert.equal(await map.locator('.leaflet-overlay-pane path.track-line').count(), 2);
    assert.equal(await map.locator('.leaflet-overlay-pane path.event-marker').count(), 3);
    assert.equal(await map.locator('.leaflet-marker-pane .stop-marker').count(), 3);
    assert.equal(await map.locator('img.leaflet-marker-icon').count(), 0);

    // The chart: named, drawn, and said in words.
    const chart = page.getByRole('img', { name: 'Chart of speed in km/h and fuel level in litres over the day' });
    const inked = await chart.locator('canvas').evaluate((element) => {
      const canvas = element as unknown as Canvas;
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let count = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) count++;
      return { width: canvas.width, count };
    });
    assert.ok(inked.width > 200 && inked.count > 2000, `the chart canvas is drawn: ${JSON.stringify(inked)}`);
    const topSpeed = Math.max(...fixes.filter((f) => f.body.isValid).map((f) => f.body.velocity));
    const summary = (await page.locator('#day-chart-summary').textContent()) ?? '';
    assert.match(summary, new RegExp(`Highest speed ${topSpeed.toFixed(0)} km/h at \\d\\d:\\d\\d\\.`));
    assert.match(summary, /Fuel \d+\.\d l at 00:0\d, \d+\.\d l at 23:59, lowest \d+\.\d l\./);
    await workspace.screenshot('tracks-day');
  });

  test('a track row zooms the map to that track; a stop is chosen by keyboard', async () => {
    const { page } = workspace;
    const mapBox = await box(page, '.tracks-page .map');
    const before = await box(page, '.leaflet-overlay-pane path.track-line >> nth=0');
    await page.getByRole('button', { name: 'Show track 1 on the map' }).click();
    assert.equal(await page.getByRole('button', { name: 'Show track 1 on the map' }).getAttribute('aria-pressed'), 'true');
    // Zoomed to the track: at the zoom that fits it (whole levels), it fills more than half the map's width or height.
    await page.waitForFunction(() => {
      const map = document.querySelector('.tracks-page .map')!.getBoundingClientRect();
      const line = document.querySelector('.leaflet-overlay-pane path.track-line.selected')?.getBoundingClientRect();
      return line !== undefined && (line.width > map.width * 0.45 || line.height > map.height * 0.45);
    });
    const after = await box(page, '.leaflet-overlay-pane path.track-line.selected');
    assert.ok(after.width * after.height > before.width * before.height, 'the selected track is drawn larger');
    assert.ok(after.width <= mapBox.width && after.height <= mapBox.height);
    await workspace.screenshot('tracks-zoomed');

    await page.getByRole('button', { name: 'Show stop 2 on the map' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.leaflet-marker-pane .stop-marker.selected').waitFor();
    assert.equal(await page.locator('.leaflet-marker-pane .stop-marker.selected').textContent(), '2');
    assert.equal(await page.getByRole('table', { name: 'Stops' }).locator('tbody tr.selected').count(), 1);

    // And from the map: a stop marker is a button of its own.
    await page.getByRole('button', { name: /^Stop 3: \d\d:\d\d–\d\d:\d\d/ }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.leaflet-marker-pane .stop-marker.selected')?.textContent === '3');
    assert.equal(await page.getByRole('button', { name: 'Show stop 3 on the map' }).getAttribute('aria-pressed'), 'true');
  });

  test('a link opens the day; an employee without fixes gets the empty state; another account\'s employee is not shown', async () => {
    const { page } = workspace;
    await page.goto(`/#/tracks/${vanID}/${DAY}`);
    await page.reload();
    await page.getByRole('table', { name: /^Tracks/ }).waitFor();
    assert.equal(await page.getByLabel('Employee', { exact: true }).inputValue(), String(vanID));
    assert.equal(await page.getByLabel('Day', { exact: true }).inputValue(), DAY);

    await page.getByLabel('Employee', { exact: true }).selectOption({ label: 'Pavel Orlov' });
    await page.getByText('No fixes for this employee on this day').waitFor();
    assert.equal(await page.locator('.tracks-page .map').count(), 0);
    assert.equal(new URL(page.url()).hash, `#/tracks/${idleID}/${DAY}`);
    await workspace.screenshot('tracks-empty');

    // Another account's employee, with fixes on that day: a link to it shows none of them.
    const stranger = await workspace.server.newAccount(TIME_ZONE);
    const theirs = await createEmployee(stranger.api, { name: 'Not ours' });
    const posted = await stranger.api.post(LOCATIONS, fixes.slice(0, 500).map((f) => ({ subscriberID: theirs, ...f.body })));
    assert.equal(posted.status, 201, posted.text);
    await page.goto(`/#/tracks/${theirs}/${DAY}`);
    await page.getByRole('alert').filter({ hasText: `There is no employee ${theirs} in this account.` }).waitFor();
    assert.equal(await page.locator('.tracks-page .map').count(), 0);
    assert.equal(await page.getByRole('table').count(), 0);
  });

  test('at 375 px the day fits the width', async () => {
    const { page } = workspace;
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`/#/tracks/${vanID}/${DAY}`);
    await page.getByRole('table', { name: /^Tracks/ }).waitFor();
    await page.locator('.day-chart-canvas canvas').waitFor();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      section: document.querySelector('.tracks-page')!.getBoundingClientRect().right,
      chart: document.querySelector('.day-chart-canvas canvas')!.getBoundingClientRect().right,
      map: document.querySelector('.tracks-page .map')!.getBoundingClientRect().right,
    }));
    for (const [what, right] of Object.entries(widths)) assert.ok(right <= 375, `${what} reaches ${right} px`);
    await page.getByRole('button', { name: 'Show track 2 on the map' }).click();
    await page.locator('.leaflet-overlay-pane path.track-line.selected').waitFor();
    await workspace.screenshot('tracks-375');
    assert.deepEqual(workspace.pageErrors, []);
  });
});
