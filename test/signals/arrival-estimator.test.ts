import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ArrivalEstimator, MIN_SPEED_KMH } from '../../src/signals/arrival-estimator.js';
import type { LatLon, Router } from '../../src/signals/osrm-router.js';
import { distance } from '../positioning/pipeline/fixtures.js';
import { MOSCOW, move, T0 } from './signal-fixtures.js';

const TASK = move(MOSCOW, 10_000, 0);
const HOUR_S = 3600;
const from = (where: LatLon, t = T0) => ({ ...where, t });

/** A router whose answers the test gives, one request at a time. */
class FakeRouter implements Router {
  readonly asked: { from: LatLon; to: LatLon }[] = [];
  answer: () => Promise<number | null> = async () => 1200;
  drivingSeconds(origin: LatLon, to: LatLon): Promise<number | null> {
    this.asked.push({ from: origin, to });
    return this.answer();
  }
}

describe('arrival estimator', () => {
  it('without a router: the straight line at the recent speed, and at least the minimum speed', () => {
    const estimator = new ArrivalEstimator(null);
    const metres = distance(MOSCOW, TASK);
    assert.ok(Math.abs(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(MOSCOW), 60, TASK, HOUR_S)! - metres / (60 / 3.6)) < 1e-6);
    assert.ok(Math.abs(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(MOSCOW), 0, TASK, HOUR_S)! - metres / (MIN_SPEED_KMH / 3.6)) < 1e-6);
  });

  it('answers null for what no road trip could reach within the horizon', () => {
    const router = new FakeRouter();
    const estimator = new ArrivalEstimator(router);
    assert.equal(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(MOSCOW), 60, move(MOSCOW, 100_000, 0), 600), null);
    assert.equal(router.asked.length, 0, 'no route asked for');
  });

  it('with a router: nothing until it answers, one request per employee and task, then its driving time', async () => {
    const router = new FakeRouter();
    const estimator = new ArrivalEstimator(router);
    assert.equal(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(MOSCOW), 60, TASK, HOUR_S), null);
    assert.equal(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(MOSCOW, T0 + 5000), 60, TASK, HOUR_S), null);
    assert.equal(router.asked.length, 1);
    assert.deepEqual(router.asked[0], { from: MOSCOW, to: TASK });
    await estimator.idle();
    assert.equal(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(MOSCOW, T0 + 10_000), 60, TASK, HOUR_S), 1200);
    // Half way there (straight line) a minute of fix time later: half the time left, no new request yet.
    const half = move(MOSCOW, 5000, 0);
    assert.ok(Math.abs(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(half, T0 + 20_000), 60, TASK, HOUR_S)! - 600) < 1);
    assert.equal(router.asked.length, 2, 'moved more than 500 m: asked again');
    await estimator.idle();
    assert.equal(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(half, T0 + 30_000), 60, TASK, HOUR_S), 1200, 'the new answer, from the new place');
    estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(half, T0 + 95_000), 60, TASK, HOUR_S);
    assert.equal(router.asked.length, 3, 'a minute later: asked again');
    await estimator.idle();
  });

  it('uses the straight line where the router knows no route, and while it fails', async () => {
    const router = new FakeRouter();
    router.answer = async () => null;
    let wall = 0;
    const warnings: string[] = [];
    const estimator = new ArrivalEstimator(router, { warn: (_, message) => warnings.push(message) }, () => wall);
    const straight = distance(MOSCOW, TASK) / (60 / 3.6);
    estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(MOSCOW), 60, TASK, HOUR_S);
    await estimator.idle();
    assert.ok(Math.abs(estimator.secondsTo({ subscriberId: 1, taskId: 1 }, from(MOSCOW), 60, TASK, HOUR_S)! - straight) < 1e-6);

    router.answer = async () => {
      throw new Error('connection refused');
    };
    assert.equal(estimator.secondsTo({ subscriberId: 2, taskId: 1 }, from(MOSCOW), 60, TASK, HOUR_S), null);
    await estimator.idle();
    assert.equal(warnings.length, 1);
    const asked = router.asked.length;
    assert.ok(Math.abs(estimator.secondsTo({ subscriberId: 2, taskId: 1 }, from(MOSCOW), 60, TASK, HOUR_S)! - straight) < 1e-6, 'the router is down: straight line');
    assert.equal(router.asked.length, asked, 'and left alone');
    wall += 31_000;
    router.answer = async () => 900;
    assert.equal(estimator.secondsTo({ subscriberId: 2, taskId: 1 }, from(MOSCOW), 60, TASK, HOUR_S), null, 'back after the pause: asked again');
    await estimator.idle();
    assert.equal(estimator.secondsTo({ subscriberId: 2, taskId: 1 }, from(MOSCOW), 60, TASK, HOUR_S), 900);
  });
});
