import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PolygonRing } from '../../src/geozones/polygon-ring.js';
import { ZoneIndex, type IndexedZone } from '../../src/geozones/zone-index.js';
import type { PipelineFix } from '../../src/positioning/pipeline/pipeline-types.js';
import { EXIT_MARGIN_M, ZoneSignal, type ZoneRule } from '../../src/signals/kinds/zone-signal.js';
import { distance, Route } from '../positioning/pipeline/fixtures.js';
import { collector, fixAt, MOSCOW, move, type LatLon } from './signal-fixtures.js';

/** A square zone `sideM` wide centred on `centre`. */
function square(zoneID: number, name: string, centre: LatLon, sideM: number, zoneGroupID: number | null = null): IndexedZone {
  const north = move(centre, sideM / 2, 0).lat;
  const south = move(centre, sideM / 2, 180).lat;
  const east = move(centre, sideM / 2, 90).lon;
  const west = move(centre, sideM / 2, 270).lon;
  return {
    ref: { zoneID, name, zoneGroupID },
    ring: new PolygonRing([
      [west, south],
      [east, south],
      [east, north],
      [west, north],
    ]),
  };
}

// Zone 1: 1 km square whose west edge is 1 km east of MOSCOW; zone 2 inside group 5, north of it.
const DEPOT = move(MOSCOW, 1500, 90);
const ZONE_1 = square(1, 'Depot', DEPOT, 1000);
const ZONE_2 = square(2, 'Yard', move(DEPOT, 3000, 0), 1000, 5);
const BOTH = ZoneIndex.build([ZONE_1, ZONE_2]);
const rule = (id: number, over: Partial<ZoneRule> = {}): ZoneRule => ({ id, zoneIDs: [1], zoneGroupIDs: [], onEntry: true, onExit: true, ...over });

function run(rules: ZoneRule[], fixes: PipelineFix[], index = BOTH, state = ZoneSignal.initialState()) {
  const { found, emit } = collector();
  const unit = new ZoneSignal(state, rules, index);
  for (const fix of fixes) unit.step(fix, emit);
  return { found, unit };
}

describe('zone signal (type 2)', () => {
  it('reports entry at the first fix inside and exit past the margin, with the zone’s id and name', () => {
    const route = new Route().park(60).drive(4000, 36, 90);
    const { found } = run([rule(9)], route.fixes);
    const fixes = route.fixes;
    const firstInside = fixes.find((f) => ZONE_1.ring.contains(f.longitude, f.latitude))!;
    const lastInside = fixes.findLast((f) => ZONE_1.ring.contains(f.longitude, f.latitude))!;
    const exit = fixes.find((f) => f.timeMs > lastInside.timeMs && distance({ lat: f.latitude, lon: f.longitude }, { lat: lastInside.latitude, lon: lastInside.longitude }) > EXIT_MARGIN_M + 100)!;
    assert.deepEqual(
      found.map((f) => [f.kind, f.ruleId, f.detail, f.atMs, f.fields]),
      [
        [2, 9, '1:1', firstInside.timeMs, { zoneID: 1, zoneName: 'Depot', zoneEventType: 1 }],
        [2, 9, '1:2', exit.timeMs, { zoneID: 1, zoneName: 'Depot', zoneEventType: 2 }],
      ],
    );
    assert.equal(found[1]!.velocityKmh, 36);
  });

  it('waits for a fix clear of the zone by the margin before an exit', () => {
    const west = ZONE_1.ring.minX;
    const edge = { lat: DEPOT.lat, lon: west };
    const fixes = [
      fixAt(0, {}, move(edge, 30, 90)),
      fixAt(10, {}, move(edge, 20, 270)),
      fixAt(20, {}, move(edge, 40, 270)),
      fixAt(30, {}, move(edge, 20, 90)),
      fixAt(40, {}, move(edge, 80, 270)),
    ];
    const { found } = run([rule(1)], [fixAt(-10, {}, move(edge, 500, 270)), ...fixes]);
    assert.deepEqual(
      found.map((f) => [f.fields.zoneEventType, f.atMs]),
      [
        [1, fixes[0]!.timeMs],
        [2, fixes[4]!.timeMs],
      ],
    );
  });

  it('does not flap for a vehicle parked on the boundary with GPS jitter', () => {
    const edge = { lat: DEPOT.lat, lon: ZONE_1.ring.minX };
    const route = new Route(move(edge, 1000, 270)).drive(1000, 30, 90).park(2 * 3600, { jitterM: 30 });
    const inside = route.fixes.filter((f) => ZONE_1.ring.contains(f.longitude, f.latitude)).length;
    assert.ok(inside > 20 && inside < route.fixes.length - 20, `the fixes fall on both sides (${inside} of ${route.fixes.length} inside)`);
    const { found } = run([rule(1)], route.fixes);
    assert.deepEqual(found.map((f) => f.fields.zoneEventType), [1]);
    const outside = new Route(move(edge, 1000, 270)).drive(980, 30, 90).park(2 * 3600, { jitterM: 30 });
    assert.ok(run([rule(1)], outside.fixes).found.length <= 1, 'parked 20 m outside: at most the one entry');
  });

  it('follows zones by group, and only the events each rule asks for', () => {
    const route = new Route(move(DEPOT, 1500, 180)).drive(6000, 50, 0);
    const { found } = run(
      [rule(1, { onExit: false }), rule(2, { zoneIDs: [], zoneGroupIDs: [5], onEntry: false }), rule(3, { zoneIDs: [2], onEntry: true, onExit: true })],
      route.fixes,
    );
    assert.deepEqual(
      found.map((f) => [f.ruleId, f.fields.zoneID, f.fields.zoneEventType]),
      [
        [1, 1, 1],
        [3, 2, 1],
        [2, 2, 2],
        [3, 2, 2],
      ],
    );
  });

  it('invents nothing: the first fix, or a change of what the rules watch, only takes membership', () => {
    const inDepot = [fixAt(0, {}, DEPOT), fixAt(10, {}, move(DEPOT, 10, 0))];
    const first = run([rule(1)], inDepot);
    assert.deepEqual(first.found, []);
    assert.deepEqual(first.unit.state.inside.map(([id]) => id), [1]);
    const inYard = [fixAt(20, {}, move(DEPOT, 3000, 0)), fixAt(30, {}, move(DEPOT, 3010, 0))];
    const wider = run([rule(1), rule(2, { zoneIDs: [2] })], inYard.slice(0, 1), BOTH, structuredClone(first.unit.state));
    assert.deepEqual(wider.found, [], 'zone 2 is watched from now on: the subscriber is in it, but did not enter it');
    const then = run([rule(1), rule(2, { zoneIDs: [2] })], inYard.slice(1), BOTH, structuredClone(wider.unit.state));
    assert.deepEqual(then.found, []);
  });

  it('forgets a zone that is disabled or deleted while the subscriber is in it, without an exit', () => {
    const inside = run([rule(1)], [fixAt(0, {}, move(DEPOT, 1000, 270)), fixAt(10, {}, DEPOT)]);
    assert.equal(inside.found.length, 1);
    const withoutDepot = ZoneIndex.build([ZONE_2]);
    const later = run([rule(1)], [fixAt(20, {}, move(DEPOT, 2000, 180))], withoutDepot, structuredClone(inside.unit.state));
    assert.deepEqual(later.found, []);
    assert.deepEqual(later.unit.state.inside, []);
  });
});
