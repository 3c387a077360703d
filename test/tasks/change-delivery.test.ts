import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { liveDelivery } from '../delivery/delivery-fixtures.js';
import { LOCATIONS, SUBSCRIBERS } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { createRule, setStatus, TASKS } from './task-fixtures.js';
import { until } from '../helpers/wait.js';

/**
 * Change events as a customer system receives them: rules made through the API, changes made
 * through the API and the employee's phone, the delivery worker posting to a receiver on
 * loopback. Every change arrives, in order, as a JSON array in the shapes of 6.4 and 6.5, signed
 * so that the public standardwebhooks package verifies it.
 */
for (const dialect of dialects) {
  describe(`change events delivered to a receiver on ${dialect}`, () => {
    const live = liveDelivery(dialect);

    it('delivers every task and employee change, in order, signed, as arrays of 6.4 / 6.5 elements', async () => {
      const { server, receiver } = live;
      const api = server.api;
      await createRule(api, { name: 'Tasks', kind: 'taskChanges', sendToApi: true, apiUrl: `${receiver.url}/tasks` });
      await createRule(api, { name: 'Employees', kind: 'employeeChanges', sendToApi: true, apiUrl: `${receiver.url}/employees` });

      const employee = await api.post(SUBSCRIBERS, { name: 'Courier', deviceKey: 'courier-phone' });
      const courier = employee.body.subscriberID as number;
      assert.equal((await api.post(LOCATIONS, [{ subscriberID: courier, locationDate: new Date().toISOString(), latitude: 55.75, longitude: 37.61 }])).status, 201);
      assert.equal((await api.patch(`${SUBSCRIBERS}/${courier}`, { phone: '79001234567' })).status, 200);

      const task = (await api.post(TASKS, { title: 'Parcel', startDate: '2026-06-01T10:00:00', subscriberID: courier })).body;
      assert.equal((await api.patch(`${TASKS}/${task.taskID}`, { address: 'Tverskaya 1' })).status, 204);
      assert.equal((await setStatus(api, 'courier-phone', task.taskID, { status: 3 })).status, 200);
      assert.equal((await api.delete(`${TASKS}/${task.taskID}`)).status, 204);
      assert.equal((await api.delete(`${SUBSCRIBERS}/${courier}`)).status, 204);

      await until('every change', () => receiver.at('/tasks').length === 4 && receiver.at('/employees').length === 4);
      const secret = (await api.get('/v6/api/eventManagement/signingSecret')).body.secret as string;
      const bodies = (path: string) =>
        receiver.at(path).map((request) => {
          assert.equal(request.headers['content-type'], 'application/json');
          const body = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as any[];
          assert.ok(Array.isArray(body) && body.length === 1, 'a JSON array');
          return body[0];
        });

      const tasks = bodies('/tasks');
      assert.deepEqual(tasks.map((e) => e.signalMetadataInfo.signalTypeID), [1, 2, 2, 3]);
      assert.deepEqual(tasks.map((e) => Object.keys(e)), [['task', 'signalMetadataInfo'], ['task', 'signalMetadataInfo', 'changedValues'], ['task', 'signalMetadataInfo', 'changedValues'], ['signalMetadataInfo']]);
      assert.deepEqual(tasks.map((e) => e.changedValues), [undefined, { address: '' }, { status: 0, lastStatusChangeDate: task.lastStatusChangeDate }, undefined]);
      assert.deepEqual(tasks.map((e) => ('subscriberID' in e.signalMetadataInfo ? 'employee' : 'userID' in e.signalMetadataInfo ? 'user' : 'agent')), ['user', 'user', 'employee', 'user']);
      assert.ok(tasks.every((e) => e.signalMetadataInfo.entityID === task.taskID && e.signalMetadataInfo.signalEntityTypeID === 1));
      assert.equal(tasks[2].task.status, 3);

      const employees = bodies('/employees');
      assert.deepEqual(employees.map((e) => e.signalMetadataInfo.signalTypeID), [1, 2, 2, 3]);
      assert.deepEqual(employees.map((e) => e.changedValues), [undefined, { isOnline: false }, { phone: '' }, undefined]);
      assert.deepEqual(employees.map((e) => Object.keys(e.signalMetadataInfo).find((k) => ['userID', 'subscriberID', 'agentID'].includes(k))), ['userID', 'agentID', 'userID', 'userID']);
      assert.equal(employees[1].signalMetadataInfo.agentID, 1);
      assert.ok(employees.every((e) => e.signalMetadataInfo.entityID === courier && e.signalMetadataInfo.signalEntityTypeID === 2));
      assert.ok(!receiver.received.some((r) => r.body.includes('courier-phone')), 'the device key is never sent');

      const ids = [...tasks, ...employees].map((e) => e.signalMetadataInfo.signalID);
      assert.equal(new Set(ids).size, ids.length, 'a signalID per change');
      const webhookIds = receiver.received.map((r) => r.headers['webhook-id']);
      assert.equal(new Set(webhookIds).size, webhookIds.length, 'a webhook-id per delivery');
    });
  });
}
