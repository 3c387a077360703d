import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FuelDetector } from '../../../src/positioning/pipeline/fuel-detector.js';
import { EventType, type Point } from '../../../src/positioning/pipeline/pipeline-types.js';
import { MOSCOW, move, RecordingSink, seededRandom, T0 } from './fixtures.js';

/** Readings every 30 s, as a typical tracker sends them. */
const EVERY_S = 30;
/** The median of 5 follows a step two readings late: a rise is seen in the smoothed level up to this long after it began. */
const MEDIAN_LAG_MS = 2 * EVERY_S * 1000;

interface Reading {
  point: Point;
  level: number;
}

/**
 * A fuel trace built from phases: `flat` holds the level, `ramp` moves it linearly to a new level,
 * one reading every 30 s. Each reading is a few metres from the last, so an event's place tells
 * which reading it was dated at.
 */
class FuelTrace {
  readonly readings: Reading[] = [];
  private seconds = 0;
  private level: number;

  constructor(
    startLevel: number,
    private readonly noise: (() => number) | null = null,
  ) {
    this.level = startLevel;
    this.push();
  }

  get lastMs(): number {
    return this.readings.at(-1)!.point.t;
  }

  flat(minutes: number): this {
    for (let i = 0; i < (minutes * 60) / EVERY_S; i++) this.next(this.level);
    return this;
  }

  /** From the current level to `to` over `minutes`. */
  ramp(to: number, minutes: number): this {
    const steps = (minutes * 60) / EVERY_S;
    const from = this.level;
    for (let i = 1; i <= steps; i++) this.next(from + ((to - from) * i) / steps);
    return this;
  }

  /** One reading off by `by` litres, the level itself unchanged. */
  spike(by: number): this {
    const level = this.level;
    this.next(level + by);
    this.level = level;
    return this;
  }

  private next(level: number): void {
    this.seconds += EVERY_S;
    this.level = level;
    this.push();
  }

  private push(): void {
    const where = move(MOSCOW, this.readings.length * 3, 45);
    const jitter = this.noise ? this.noise() : 0;
    this.readings.push({ point: { t: T0 + this.seconds * 1000, lat: where.lat, lon: where.lon }, level: this.level + jitter });
  }
}

function runFuel(readings: readonly Reading[], fillThreshold = 10, drainThreshold = 10) {
  const sink = new RecordingSink();
  const detector = new FuelDetector(FuelDetector.initialState(), fillThreshold, drainThreshold);
  const smoothed = readings.map((r, i) => {
    sink.step = i;
    return detector.step(r.point, r.level, sink);
  });
  const eventCalls = sink.calls.filter((c) => c.kind === 'event');
  return { sink, smoothed, eventCalls, events: sink.eventList() };
}

/** Noise uniform in ±`amplitude` litres, the same on every run. */
function noise(amplitude: number, seed = 7): () => number {
  const random = seededRandom(seed);
  return () => (random() * 2 - 1) * amplitude;
}

describe('fuel detector', () => {
  it('smooths with the median of the last 5 readings', () => {
    const levels = [50, 52, 49, 80, 51, 50, 20, 48];
    const readings = levels.map((level, i) => ({ point: { t: T0 + i * 30_000, lat: MOSCOW.lat, lon: MOSCOW.lon }, level }));
    const { smoothed } = runFuel(readings);
    // From the fifth reading on, each is the median of itself and the four before it.
    assert.deepEqual(smoothed.slice(4), [51, 51, 50, 50]);
  });

  it('ignores a single spike of +30 L or -30 L', () => {
    const trace = new FuelTrace(50).flat(10).spike(30).flat(10).spike(-30).flat(10);
    const { smoothed, eventCalls } = runFuel(trace.readings);
    assert.deepEqual(eventCalls, []);
    assert.ok(
      smoothed.every((level) => level === 50),
      'the spike never shows in the smoothed level',
    );
  });

  it('ignores a spike among the very first readings too (before 5 are known)', () => {
    for (const spikeAt of [0, 1]) {
      const levels = Array.from({ length: 40 }, (_, i) => (i === spikeAt ? 80 : 50));
      const readings = levels.map((level, i) => ({ point: { t: T0 + i * 30_000, lat: MOSCOW.lat, lon: MOSCOW.lon }, level }));
      const { eventCalls } = runFuel(readings);
      assert.deepEqual(eventCalls, [], `spike at reading ${spikeAt}`);
    }
  });

  it('reports a 40 L refuelling within 3 minutes once, after the level settles, with about 40 L', () => {
    const trace = new FuelTrace(50).flat(10).ramp(90, 3).flat(10);
    const { smoothed, eventCalls, events } = runFuel(trace.readings);
    assert.equal(eventCalls.length, 1, 'reported once, not updated');
    assert.equal(events.length, 1);
    const [event] = events;
    assert.equal(event!.type, EventType.fuelFilling);
    assert.equal(event!.detail, 0);
    // Noise-free readings: both ends of the rise are exact, only float rounding remains.
    assert.ok(Math.abs(event!.value - 40) <= 0.01, `value ${event!.value}`);

    // Settled = 2 minutes without a new high of the smoothed level.
    const top = Math.max(...smoothed);
    const topIndex = smoothed.indexOf(top);
    const topMs = trace.readings[topIndex]!.point.t;
    const reportedMs = trace.readings[eventCalls[0]!.step]!.point.t;
    assert.ok(reportedMs - topMs >= 2 * 60_000, 'not before the level settled for 2 minutes');
    assert.ok(reportedMs - topMs < 2 * 60_000 + EVERY_S * 1000, 'at the first reading after it settled');
  });

  it('measures a refuelling through sensor noise of ±0.5 L within ±1 L', () => {
    // Tolerance: the value is the difference of two smoothed levels, each a median of readings off
    // by at most 0.5 L, so each end can be off by 0.5 L and the difference by 1 L.
    const trace = new FuelTrace(50, noise(0.5)).flat(10).ramp(90, 3).flat(10);
    const { eventCalls, events } = runFuel(trace.readings);
    assert.equal(eventCalls.length, 1);
    assert.equal(events[0]!.type, EventType.fuelFilling);
    assert.ok(Math.abs(events[0]!.value - 40) <= 1, `value ${events[0]!.value}`);
  });

  it('reports a 15 L drain once, with about 15 L', () => {
    const trace = new FuelTrace(60).flat(10).ramp(45, 2).flat(10);
    const { eventCalls, events } = runFuel(trace.readings);
    assert.equal(eventCalls.length, 1);
    assert.equal(events[0]!.type, EventType.fuelDrain);
    assert.equal(events[0]!.detail, 0);
    assert.ok(Math.abs(events[0]!.value - 15) <= 0.01, `value ${events[0]!.value}`);
  });

  describe('dates an event at the start of the change (within the median lag of 2 readings)', () => {
    // The vehicle stood with a steady level for 10 minutes, then the level changed.
    for (const [name, target, type] of [
      ['refuelling', 90, EventType.fuelFilling],
      ['drain', 35, EventType.fuelDrain],
    ] as const) {
      it(name, () => {
        const trace = new FuelTrace(50).flat(10);
        const changeStartMs = trace.lastMs; // the last reading at the old level
        trace.ramp(target, 3).flat(10);
        const { events } = runFuel(trace.readings);
        assert.equal(events.length, 1);
        const [event] = events;
        assert.equal(event!.type, type);
        assert.ok(
          event!.eventMs >= changeStartMs && event!.eventMs <= changeStartMs + MEDIAN_LAG_MS,
          `dated ${(event!.eventMs - changeStartMs) / 1000} s from the start of the change`,
        );
        const at = trace.readings.find((r) => r.point.t === event!.eventMs)!;
        assert.deepEqual([event!.latitude, event!.longitude], [at.point.lat, at.point.lon], 'placed where it started');
      });
    }
  });

  it('reports nothing for slow consumption while driving (0.15 L/min for 4 hours, ±0.3 L noise)', () => {
    const trace = new FuelTrace(100, noise(0.3, 11)).ramp(100 - 0.15 * 240, 240);
    const { eventCalls, smoothed } = runFuel(trace.readings);
    assert.deepEqual(eventCalls, []);
    assert.ok(smoothed.at(-1)! < 65, 'fixture: 36 L were used');
  });

  it('takes its thresholds from the settings', () => {
    const filling = new FuelTrace(30).flat(10).ramp(38, 2).flat(10).readings;
    assert.equal(runFuel(filling, 10, 10).eventCalls.length, 0, '8 L is under a 10 L threshold');
    const withFive = runFuel(filling, 5, 10).events;
    assert.equal(withFive.length, 1, '8 L is over a 5 L threshold');
    assert.equal(withFive[0]!.type, EventType.fuelFilling);
    assert.ok(Math.abs(withFive[0]!.value - 8) <= 0.01);

    const drain = new FuelTrace(38).flat(10).ramp(30, 2).flat(10).readings;
    assert.equal(runFuel(drain, 5, 10).eventCalls.length, 0, 'the fill threshold does not apply to a drain');
    const drained = runFuel(drain, 10, 5).events;
    assert.equal(drained.length, 1);
    assert.equal(drained[0]!.type, EventType.fuelDrain);
  });

  it('tells two refuellings an hour apart into two events', () => {
    // 40 L, then 15 L used over 50 minutes (0.3 L/min), then 35 L.
    const trace = new FuelTrace(20).flat(10).ramp(60, 3).flat(5).ramp(45, 50).ramp(80, 2).flat(10);
    const { events } = runFuel(trace.readings);
    assert.deepEqual(
      events.map((e) => e.type),
      [EventType.fuelFilling, EventType.fuelFilling],
    );
    // The second rise starts from a falling level, which the median follows two readings (0.3 L) late.
    assert.ok(Math.abs(events[0]!.value - 40) <= 0.01 && Math.abs(events[1]!.value - 35) <= 0.5, `values ${events.map((e) => e.value)}`);
  });
});
