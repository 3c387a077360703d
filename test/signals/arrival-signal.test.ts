import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PipelineFix } from '../../src/positioning/pipeline/pipeline-types.js';
import { ArrivalEstimator } from '../../src/signals/arrival-estimator.js';
import { ArrivalSignal, type ArrivalRule } from '../../src/signals/kinds/arrival-signal.js';
import type { TaskDestination } from '../../src/tasks/task-destinations.js';
import { distance, Route } from '../positioning/pipeline/fixtures.js';
import { collector, fixAt, MOSCOW, move, T0 } from './signal-fixtures.js';

const TASK_POINT = move(MOSCOW, 6050, 0);
const task = (over: Partial<TaskDestination> = {}): TaskDestination => ({
  taskId: 31,
  subscriberId: 4,
  externalId: 'ext-31',
  startMs: Date.parse('2026-05-20T09:00:00Z'),
  deadlineMs: null,
  latitude: TASK_POINT.lat,
  longitude: TASK_POINT.lon,
  clientName: 'Anna',
  clientPhone: '+7 (900) 123-45-67',
  customFields: [{ externalID: 'door', value: '3' }],
  ...over,
});

function run(rules: ArrivalRule[], fixes: PipelineFix[], tasks = [task()], live = () => true, state = ArrivalSignal.initialState()) {
  const { found, emit } = collector();
  const unit = new ArrivalSignal(state, rules, { tasks, estimator: new ArrivalEstimator(null), timeZone: 'Europe/Moscow' });
  for (const fix of fixes) unit.step(fix, live(), emit);
  return { found, unit };
}

const away = (fix: PipelineFix) => distance({ lat: fix.latitude, lon: fix.longitude }, TASK_POINT);

describe('estimated arrival signal (type 24)', () => {
  it('fires once per rule and task when the straight-line estimate at the recent speed is within minutesBefore', () => {
    const route = new Route().drive(6000, 36, 0);
    const fixes = route.fixes;
    const { found } = run(
      [
        { id: 1, minutesBefore: 5 },
        { id: 2, minutesBefore: 2 },
      ],
      fixes,
    );
    // 36 km/h is 10 m/s: 5 minutes is 3000 m, 2 minutes 1200 m.
    const at5 = fixes.find((f) => away(f) <= 3000)!;
    const at2 = fixes.find((f) => away(f) <= 1200)!;
    assert.deepEqual(
      found.map((f) => [f.kind, f.ruleId, f.detail, f.atMs]),
      [
        [24, 1, '31', at5.timeMs],
        [24, 2, '31', at2.timeMs],
      ],
    );
    const arrival = at5.timeMs + Math.round((away(at5) / 10) * 1000);
    assert.deepEqual(found[0]!.fields, {
      taskID: 31,
      externalTaskID: 'ext-31',
      taskStartDate: '2026-05-20T12:00:00+03:00',
      taskDeadlineDate: null,
      estimatedArrivalDate: new Date(Math.round(arrival / 1000) * 1000 + 3 * 3_600_000).toISOString().replace('.000Z', '+03:00'),
      customFields: [{ externalID: 'door', value: '3' }],
      taskClientPhone: '79001234567',
      taskClientName: 'Anna',
    });
  });

  it('takes a standing employee to move at the minimum speed', () => {
    const near = move(TASK_POINT, 2000, 180);
    const fixes = [0, 60, 120].map((s) => fixAt(s, { velocityKmh: 0 }, near));
    // 2 km at 15 km/h is 8 minutes.
    assert.equal(run([{ id: 1, minutesBefore: 7 }], fixes).found.length, 0);
    assert.equal(run([{ id: 1, minutesBefore: 9 }], fixes).found.length, 1);
  });

  it('fires for nothing but live fixes newer than any seen, and keeps its state then only', () => {
    const near = move(TASK_POINT, 500, 180);
    const replayed = run([{ id: 1, minutesBefore: 10 }], [fixAt(0, {}, near)], [task()], () => false);
    assert.deepEqual(replayed.found, []);
    assert.deepEqual(replayed.unit.state, { recent: [], notified: {} });
    const state = ArrivalSignal.initialState();
    run([{ id: 1, minutesBefore: 10 }], [fixAt(100, {}, move(TASK_POINT, 20_000, 180))], [task()], () => true, state);
    const older = run([{ id: 1, minutesBefore: 10 }], [fixAt(50, {}, near)], [task()], () => true, state);
    assert.deepEqual(older.found, [], 'a fix older than the latest is not where the employee is');
  });

  it('remembers what it fired only for open tasks and existing rules', () => {
    const near = [fixAt(0, {}, move(TASK_POINT, 300, 180))];
    const first = run([{ id: 1, minutesBefore: 10 }], near, [task(), task({ taskId: 32 })]);
    assert.deepEqual(first.found.map((f) => f.fields.taskID), [31, 32]);
    assert.deepEqual(first.unit.state.notified, { 31: [1], 32: [1] });
    const again = run([{ id: 1, minutesBefore: 10 }], [fixAt(60, {}, move(TASK_POINT, 200, 180))], [task(), task({ taskId: 32 })], () => true, structuredClone(first.unit.state));
    assert.deepEqual(again.found, [], 'once per task');
    const closed = new ArrivalSignal(structuredClone(first.unit.state), [{ id: 1, minutesBefore: 10 }], { tasks: [task()], estimator: new ArrivalEstimator(null), timeZone: 'UTC' });
    assert.deepEqual(closed.state.notified, { 31: [1] }, 'task 32 closed');
    const gone = new ArrivalSignal(structuredClone(first.unit.state), [{ id: 2, minutesBefore: 10 }], { tasks: [task()], estimator: new ArrivalEstimator(null), timeZone: 'UTC' });
    assert.deepEqual(gone.state.notified, {}, 'rule 1 gone');
  });

  it('answers null phone and name when the task has none, and keeps the recent samples bounded', () => {
    const { found, unit } = run([{ id: 1, minutesBefore: 30 }], new Route(move(TASK_POINT, 8000, 180), T0).drive(7000, 30, 0).fixes, [task({ clientPhone: '', clientName: '' })]);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.fields.taskClientPhone, null);
    assert.equal(found[0]!.fields.taskClientName, null);
    assert.ok(unit.state.recent.length <= 6, `${unit.state.recent.length} samples`);
  });
});
