import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { dialects } from '../helpers/stores.js';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';

// Functions given to page.evaluate run in the page; the tests compile without DOM types, so this names what they use.
declare const document: { querySelector(selector: string): any; activeElement: any; documentElement: { scrollWidth: number } };

const ZONES = '/v6/api/zoneManagement/zones';
const GROUPS = '/v6/api/zoneManagement/zoneGroups';

interface LatLng {
  lat: number;
  lng: number;
}

/**
 * Page pixels to coordinates through the page's own Leaflet map (the Zones tab puts it on the map's
 * container), with the arithmetic Leaflet applies to mouse events.
 */
function toLatLngs(page: Page, points: [number, number][]): Promise<LatLng[]> {
  return page.evaluate((pixels) => {
    const element = document.querySelector('.zones-map .map');
    const rect = element.getBoundingClientRect();
    return pixels.map(([x, y]) => {
      const { lat, lng } = element.leafletMap.containerPointToLatLng([x - rect.left - element.clientLeft, y - rect.top - element.clientTop]);
      return { lat, lng };
    });
  }, points);
}

/** The page pixel (whole, as mouse events have) where a coordinate is drawn now. */
function toPixel(page: Page, point: LatLng): Promise<[number, number]> {
  return page.evaluate(({ lat, lng }) => {
    const element = document.querySelector('.zones-map .map');
    const rect = element.getBoundingClientRect();
    const { x, y } = element.leafletMap.latLngToContainerPoint([lat, lng]);
    return [Math.round(x + rect.left + element.clientLeft), Math.round(y + rect.top + element.clientTop)] as [number, number];
  }, point);
}

function assertNear(actual: { latitude: number; longitude: number }, expected: LatLng, what: string) {
  // Bounds are stored to 6 decimals; one pixel at the start zoom is about 0.001 degree.
  assert.ok(Math.abs(actual.latitude - expected.lat) < 2e-5 && Math.abs(actual.longitude - expected.lng) < 2e-5, `${what}: ${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`);
}

async function zoneNamed(workspace: Workspace, name: string) {
  const list = await workspace.server.api.get(`${ZONES}?withCustomTemplateItems=false`);
  return (list.body as any[]).find((zone) => zone.name === name);
}

async function lookup(workspace: Workspace, point: LatLng): Promise<number[]> {
  const answer = await workspace.server.api.get(`${ZONES}/mapObjectCoordinates?latitude=${point.lat}&longitude=${point.lng}`);
  assert.equal(answer.status, 200, answer.text);
  return (answer.body.zones as { zoneID: number }[]).map((z) => z.zoneID);
}

/** Visible zone outlines on the map (Leaflet's SVG paths; Geoman's own temporary lines are not interactive). */
function drawnZones(page: Page) {
  return page.locator('.zones-map .leaflet-overlay-pane path.leaflet-interactive');
}

// The workspace over each store: the rules and zones it saves are read back and used by the server.
for (const dialect of dialects) {
  describe(`workspace in the browser: the Zones tab on ${dialect}`, needsBrowser, () => {
    let workspace: Workspace;
    before(async () => {
      workspace = await openWorkspace({ dialect });
    });
    after(() => workspace?.close());

    test('a group made in the page; a zone drawn with the mouse, saved, found by lookup, reshaped, hidden and deleted', async () => {
      const { page } = workspace;
      await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Zones' }).click();
      const map = page.getByRole('region', { name: 'Zones map' });
      await map.waitFor();

      const groups = page.getByRole('region', { name: 'Zone groups' });
      await groups.getByLabel('New group name').fill('Depots');
      await groups.getByRole('button', { name: 'Create group' }).click();
      await groups.getByRole('button', { name: 'Delete group Depots' }).waitFor();
      const depots = ((await workspace.server.api.get(GROUPS)).body as any[]).find((g) => g.name === 'Depots');
      assert.ok(depots, 'the group exists on the server');

      // Four corners clicked on the map, then the first one again to finish.
      // Escape leaves drawing mode (Geoman's corner marker under the mouse goes with it).
      const addZone = page.getByRole('group', { name: 'Add a zone' });
      await addZone.getByRole('button', { name: 'Draw zone' }).click();
      await addZone.getByRole('button', { name: 'Cancel drawing' }).waitFor();
      assert.equal(await page.locator('.zones-map .cursor-marker').count(), 1);
      await page.keyboard.press('Escape');
      await addZone.getByRole('button', { name: 'Draw zone' }).waitFor();
      assert.equal(await page.locator('.zones-map .cursor-marker').count(), 0);
      await addZone.getByRole('button', { name: 'Draw zone' }).click();
      await addZone.getByRole('button', { name: 'Cancel drawing' }).waitFor();
      const box = (await map.boundingBox())!;
      const pixels: [number, number][] = [
        [150, 120],
        [400, 120],
        [400, 320],
        [150, 320],
        // Whole pixels: the browser reports mouse events on whole pixels.
      ].map(([x, y]) => [Math.round(box.x + x!), Math.round(box.y + y!)]);
      const corners = await toLatLngs(page, pixels);
      for (const [x, y] of pixels) await page.mouse.click(x, y);
      await page.mouse.click(...pixels[0]!);

      const form = page.getByRole('region', { name: 'New zone' });
      await form.getByLabel('Name').waitFor();
      assert.equal(await form.getByText('4 corners.').count(), 1);
      // The server's validation message appears next to its field.
      await form.getByRole('button', { name: 'Save zone' }).click();
      await form.locator('#zone-name-error').filter({ hasText: 'is required' }).waitFor();
      assert.equal(await form.getByLabel('Name').getAttribute('aria-invalid'), 'true');

      await form.getByLabel('Name').fill('North depot');
      await form.getByLabel('Group').selectOption({ label: 'Depots' });
      await form.getByLabel('Colour').fill('#d0312d');
      await form.getByLabel('Comment').fill('Gate on the east side');
      await form.getByRole('button', { name: 'Save zone' }).click();
      const editor = page.getByRole('region', { name: 'Zone: North depot' });
      await editor.waitFor();
      await page.getByRole('status').filter({ hasText: 'Zone “North depot” created.' }).waitFor();

      const zone = await zoneNamed(workspace, 'North depot');
      assert.ok(zone, 'the zone exists on the server');
      assert.equal(zone.zoneGroupID, depots.zoneGroupID);
      assert.equal(zone.color, 0xd0312d);
      assert.equal(zone.comment, 'Gate on the east side');
      assert.equal(zone.enabled, true);
      assert.equal(zone.bounds.length, 4);
      zone.bounds.forEach((point: any, i: number) => assertNear(point, corners[i]!, `corner ${i}`));

      const inside = { lat: (corners[0]!.lat + corners[2]!.lat) / 2, lng: (corners[0]!.lng + corners[2]!.lng) / 2 };
      const outside = { lat: corners[0]!.lat + (corners[0]!.lat - corners[2]!.lat), lng: inside.lng };
      assert.deepEqual(await lookup(workspace, inside), [zone.zoneID]);
      assert.deepEqual(await lookup(workspace, outside), []);
      await workspace.screenshot('zones-drawn-desktop');

      // A group with zones is kept: the server's 409 message is shown under it.
      await groups.getByRole('button', { name: 'Delete group Depots' }).click();
      await groups.getByRole('button', { name: 'Yes, delete group' }).click();
      await groups.getByRole('alert').filter({ hasText: 'still has zones' }).waitFor();
      assert.equal((await workspace.server.api.get(`${GROUPS}/${depots.zoneGroupID}`)).status, 200);

      // The second corner dragged up and to the right; a point only the new outline covers.
      await editor.getByRole('button', { name: 'Edit vertices' }).click();
      await editor.getByRole('button', { name: 'Save shape' }).waitFor();
      const from = await toPixel(page, { lat: zone.bounds[1].latitude, lng: zone.bounds[1].longitude });
      const to: [number, number] = [from[0] + 80, from[1] - 60];
      await page.locator('.zones-map .marker-icon:not(.marker-icon-middle)').first().waitFor();
      const [moved, between] = await toLatLngs(page, [to, [from[0] + 40, from[1] - 20]]);
      await page.mouse.move(...from);
      await page.mouse.down();
      await page.mouse.move(...to, { steps: 8 });
      await page.mouse.up();
      assert.deepEqual(await lookup(workspace, between!), [], 'outside the outline before the move');
      await workspace.screenshot('zones-vertices-desktop');
      await editor.getByRole('button', { name: 'Save shape' }).click();
      await page.getByRole('status').filter({ hasText: 'Shape of “North depot” saved.' }).waitFor();
      const reshaped = await zoneNamed(workspace, 'North depot');
      assert.equal(reshaped.bounds.length, 4);
      assertNear(reshaped.bounds[1], moved!, 'the moved corner');
      for (const i of [0, 2, 3]) assertNear(reshaped.bounds[i], corners[i]!, `corner ${i} stays`);
      assert.deepEqual(await lookup(workspace, between!), [zone.zoneID], 'inside the outline after the move');

      // Hiding the group in the layers control takes its zone off the map.
      assert.equal(await drawnZones(page).count(), 1);
      const layersControl = page.getByRole('group', { name: 'Zone groups shown on the map' });
      await layersControl.getByLabel('Depots').uncheck();
      assert.equal(await drawnZones(page).count(), 0);
      await layersControl.getByLabel('Depots').check();
      assert.equal(await drawnZones(page).count(), 1);

      // Deleting asks first; the confirmation has the focus, so Enter confirms.
      await editor.getByRole('button', { name: 'Delete zone' }).click();
      const confirmFocused = () => page.waitForFunction(() => document.activeElement?.textContent === 'Yes, delete zone');
      await confirmFocused();
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => document.activeElement?.textContent === 'Delete zone');
      assert.equal((await workspace.server.api.get(`${ZONES}/${zone.zoneID}`)).status, 200, 'Escape keeps the zone');
      await page.keyboard.press('Enter');
      await confirmFocused();
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Zone “North depot” deleted.' }).waitFor();
      assert.equal((await workspace.server.api.get(`${ZONES}/${zone.zoneID}`)).status, 404);
      assert.equal(await drawnZones(page).count(), 0);

      // Now the empty group can be renamed and deleted.
      await groups.getByRole('button', { name: 'Rename group Depots' }).click();
      await groups.getByLabel('Name of group “Depots”').fill('Warehouses');
      await groups.getByRole('button', { name: 'Save name' }).click();
      await groups.getByRole('button', { name: 'Delete group Warehouses' }).click();
      await groups.getByRole('button', { name: 'Yes, delete group' }).click();
      await page.getByRole('status').filter({ hasText: 'Group “Warehouses” deleted.' }).waitFor();
      assert.equal((await workspace.server.api.get(`${GROUPS}/${depots.zoneGroupID}`)).status, 404);
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('a zone typed as coordinates from the keyboard, reshaped and disabled, on a 375 px screen', async () => {
      const { page } = workspace;
      await page.setViewportSize({ width: 375, height: 812 });
      await page.reload();
      await page.getByRole('group', { name: 'Add a zone' }).getByRole('button', { name: 'Enter coordinates' }).click();
      const form = page.getByRole('region', { name: 'New zone' });
      const textarea = form.getByLabel('Coordinates, one “latitude, longitude” line per corner');
      assert.equal(await textarea.evaluate((element) => element === document.activeElement), true, 'the textarea has the focus');

      await page.keyboard.type('55.70, 37.50\n55.70 north');
      await form.getByRole('button', { name: 'Use coordinates' }).click();
      await form.locator('#zone-bounds-error').filter({ hasText: 'Line 2' }).waitFor();
      await textarea.fill('');
      await page.keyboard.type('55.70, 37.50\n55.70, 37.60\n55.76, 37.60\n55.76, 37.50\n');
      await form.getByRole('button', { name: 'Use coordinates' }).press('Enter');
      await form.getByText('4 corners.').waitFor();
      await form.getByLabel('Name').fill('Yard');
      await form.getByRole('button', { name: 'Save zone' }).press('Enter');
      await page.getByRole('status').filter({ hasText: 'Zone “Yard” created.' }).waitFor();

      const yard = await zoneNamed(workspace, 'Yard');
      assert.deepEqual(yard.bounds, [
        { latitude: 55.7, longitude: 37.5 },
        { latitude: 55.7, longitude: 37.6 },
        { latitude: 55.76, longitude: 37.6 },
        { latitude: 55.76, longitude: 37.5 },
      ]);
      assert.equal(yard.zoneGroupID, null);
      assert.deepEqual(await lookup(workspace, { lat: 55.73, lng: 37.55 }), [yard.zoneID]);

      // On a phone the list comes below the map, and nothing is wider than the screen.
      const mapBox = (await page.getByRole('region', { name: 'Zones map' }).boundingBox())!;
      const listBox = (await page.getByRole('region', { name: /^Zones \(/ }).boundingBox())!;
      assert.ok(listBox.y >= mapBox.y + mapBox.height, 'the list is below the map');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no sideways scrolling');
      await workspace.screenshot('zones-375');

      // Selected from the list with the keyboard; the outline replaced by typed coordinates.
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('region', { name: /^Zones \(/ }).getByRole('button', { name: 'Yard' }).press('Enter');
      const editor = page.getByRole('region', { name: 'Zone: Yard' });
      await editor.getByRole('button', { name: 'Enter coordinates' }).press('Enter');
      await editor.getByLabel('Coordinates, one “latitude, longitude” line per corner').fill('55.80, 37.70\n55.80, 37.80\n55.85, 37.75');
      await editor.getByRole('button', { name: 'Save coordinates' }).press('Enter');
      await page.getByRole('status').filter({ hasText: 'Shape of “Yard” saved.' }).waitFor();
      const moved = await zoneNamed(workspace, 'Yard');
      assert.equal(moved.bounds.length, 3);
      assert.deepEqual(await lookup(workspace, { lat: 55.82, lng: 37.75 }), [yard.zoneID]);
      assert.deepEqual(await lookup(workspace, { lat: 55.73, lng: 37.55 }), []);

      // Disabled: lookups skip it, and the map draws it dashed.
      await editor.getByLabel(/^Enabled/).uncheck();
      await editor.getByRole('button', { name: 'Save zone' }).click();
      await page.getByRole('status').filter({ hasText: 'Zone “Yard” saved.' }).waitFor();
      assert.equal((await zoneNamed(workspace, 'Yard')).enabled, false);
      assert.deepEqual(await lookup(workspace, { lat: 55.82, lng: 37.75 }), []);
      assert.ok(await drawnZones(page).first().getAttribute('stroke-dasharray'), 'a disabled zone is dashed');
      await page.getByRole('region', { name: /^Zones \(/ }).getByText('(disabled)').waitFor();
      await workspace.screenshot('zones-375-disabled');
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
