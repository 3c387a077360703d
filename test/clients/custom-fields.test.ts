import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read, type Refusal } from '../helpers/bad-input.js';
import { createEmployee, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TASKS } from '../tasks/task-fixtures.js';
import { createTemplate, CUSTOM_FIELDS, ZONES } from './client-fixtures.js';

/** Custom-field templates: the typed fields zones, tasks and employees fill, and the checks of what they fill. */
for (const dialect of dialects) {
  describe(`custom-field templates on ${dialect}`, () => {
    let server: TestServer;
    let template: number;
    before(async () => {
      server = await startServer(dialect);
      const r = await server.api.post(CUSTOM_FIELDS, {
        name: 'Site survey',
        customFieldFormItems: [
          { externalID: 'floors', name: 'Floors', type: 'Integer', isRequired: true },
          { externalID: 'area', name: 'Area', type: 'double' },
          { externalID: 'opened', name: 'Opened', type: 'DATE' },
          { externalID: 'opens', name: 'Opens at', type: 'time' },
          { externalID: 'lift', name: 'Lift', type: 'boolean' },
          { externalID: 'kind', name: 'Kind', type: 'select', values: ['office', 'warehouse'] },
          { externalID: 'note', name: 'Note', type: 'text' },
        ],
      });
      assert.equal(r.status, 201, r.text);
      template = r.body.customFieldsFormTemplateID;
    });
    after(() => server.close());

    it('creates (201 with Location), lists, reads, replaces, patches and deletes a template', async () => {
      const created = await server.api.post(CUSTOM_FIELDS, { name: 'Check', customFieldFormItems: [{ externalID: 'ok', name: 'OK', type: 'Boolean' }] });
      assert.equal(created.status, 201, created.text);
      const id = created.body.customFieldsFormTemplateID;
      assert.equal(created.headers.get('location'), `${CUSTOM_FIELDS}/${id}`);
      assert.deepEqual(created.body, {
        customFieldsFormTemplateID: id,
        name: 'Check',
        customFieldFormItems: [{ externalID: 'ok', name: 'OK', type: 'Boolean', isRequired: false, values: [] }],
      });
      assert.deepEqual((await server.api.get(`${CUSTOM_FIELDS}/${id}`)).body, created.body);
      assert.deepEqual((await server.api.get(CUSTOM_FIELDS)).body.map((t: any) => t.customFieldsFormTemplateID), [template, id]);
      assert.equal((await server.api.put(`${CUSTOM_FIELDS}/${id}`, { name: 'Checked' })).status, 204);
      assert.deepEqual((await server.api.get(`${CUSTOM_FIELDS}/${id}`)).body, { customFieldsFormTemplateID: id, name: 'Checked', customFieldFormItems: [] });
      assert.equal((await server.api.patch(`${CUSTOM_FIELDS}/${id}`, { customFieldFormItems: [{ externalID: 'n', name: 'N', type: 'file' }] })).status, 204);
      assert.equal((await server.api.get(`${CUSTOM_FIELDS}/${id}`)).body.name, 'Checked');
      assert.equal((await server.api.delete(`${CUSTOM_FIELDS}/${id}`)).status, 204);
      const gone = await server.api.get(`${CUSTOM_FIELDS}/${id}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 1020);
    });

    it('takes values that fit their fields on zones, tasks and employees', async () => {
      const items = [
        { externalID: 'floors', name: 'Floors', type: 'integer', value: '-2' },
        { externalID: 'area', name: 'Area', type: 'double', value: '120.5' },
        { externalID: 'opened', name: 'Opened', type: 'date', value: '2024-02-29' },
        { externalID: 'opens', name: 'Opens at', type: 'time', value: '08:30' },
        { externalID: 'lift', name: 'Lift', type: 'Boolean', value: 'TRUE' },
        { externalID: 'kind', name: 'Kind', type: 'select', value: 'office' },
        { externalID: 'note', name: 'Note', type: 'text', value: 'any text; DROP TABLE zones' },
      ];
      const zone = await server.api.post(ZONES, { name: 'Site', customFieldsFormTemplateID: template, customFieldFormItems: items });
      assert.equal(zone.status, 201, zone.text);
      assert.deepEqual(zone.body.customFieldFormItems, items);
      const task = await server.api.post(TASKS, { title: 'Survey', startDate: '2026-06-01T09:00:00', customFieldFormTemplateID: template, customFieldFormItems: items.slice(0, 2) });
      assert.equal(task.status, 201, task.text);
      const employee = await server.api.post(SUBSCRIBERS, { name: 'Surveyor', customFieldsFormTemplateID: template, customFieldFormItems: [{ ...items[0]!, value: '' }] });
      assert.equal(employee.status, 201, employee.text);
    });

    it('a deleted template: objects keep its id and values and can still be edited in their other fields', async () => {
      const doomed = await createTemplate(server.api, [['n', 'integer']]);
      const zone = (await server.api.post(ZONES, { name: 'Kept', customFieldsFormTemplateID: doomed, customFieldFormItems: [{ externalID: 'n', name: 'n', type: 'integer', value: '4' }] })).body;
      assert.equal((await server.api.delete(`${CUSTOM_FIELDS}/${doomed}`)).status, 204);
      assert.equal((await server.api.patch(`${ZONES}/${zone.zoneID}`, { comment: 'renamed' })).status, 204);
      const after = (await server.api.get(`${ZONES}/${zone.zoneID}`)).body;
      assert.equal(after.customFieldsFormTemplateID, doomed);
      assert.deepEqual(after.customFieldFormItems, zone.customFieldFormItems);
      await assertRefusedUnchanged(
        () => read(server.api, `${ZONES}/${zone.zoneID}`),
        () => server.api.patch(`${ZONES}/${zone.zoneID}`, { customFieldFormItems: [] }),
        { code: 2, field: 'customFieldsFormTemplateID' },
      );
    });

    describe('refuses bad templates and bad values with the envelope and changes nothing', () => {
      const templates: [string, unknown, Refusal][] = [
        ['no name', { customFieldFormItems: [] }, { code: 52, field: 'name' }],
        ['an unknown type', { name: 't', customFieldFormItems: [{ externalID: 'a', name: 'A', type: 'money' }] }, { code: 2, field: 'customFieldFormItems[0].type' }],
        ['two fields with one externalID', { name: 't', customFieldFormItems: [{ externalID: 'a', name: 'A', type: 'text' }, { externalID: 'a', name: 'B', type: 'text' }] }, { code: 2, field: 'customFieldFormItems[1].externalID' }],
        ['an empty externalID', { name: 't', customFieldFormItems: [{ externalID: '', name: 'A', type: 'text' }] }, { code: 52 }],
        ['isRequired as text', { name: 't', customFieldFormItems: [{ externalID: 'a', name: 'A', type: 'text', isRequired: 'yes' }] }, { code: 2 }],
        ['choices that are not text', { name: 't', customFieldFormItems: [{ externalID: 'a', name: 'A', type: 'select', values: [1] }] }, { code: 2 }],
      ];
      for (const [label, body, expected] of templates) {
        it(`a template with ${label}: code ${expected.code}`, async () => {
          await assertRefusedUnchanged(() => read(server.api, CUSTOM_FIELDS), () => server.api.post(CUSTOM_FIELDS, body), expected, `POST ${label}`);
          await assertRefusedUnchanged(() => read(server.api, CUSTOM_FIELDS), () => server.api.put(`${CUSTOM_FIELDS}/${template}`, body), expected, `PUT ${label}`);
        });
      }
      const item = (externalID: string, type: string, value: string) => [{ externalID, name: externalID, type, value }];
      const values: [string, Record<string, unknown>, string][] = [
        ['an integer given words', { customFieldFormItems: item('floors', 'integer', 'two') }, 'customFieldFormItems[0].value'],
        ['a double given a comma', { customFieldFormItems: item('area', 'double', '1,5') }, 'customFieldFormItems[0].value'],
        ['a date that does not exist', { customFieldFormItems: item('opened', 'date', '2026-02-30') }, 'customFieldFormItems[0].value'],
        ['a time past midnight', { customFieldFormItems: item('opens', 'time', '24:00') }, 'customFieldFormItems[0].value'],
        ['a boolean given yes', { customFieldFormItems: item('lift', 'boolean', 'yes') }, 'customFieldFormItems[0].value'],
        ['a select given another choice', { customFieldFormItems: item('kind', 'select', 'shop') }, 'customFieldFormItems[0].value'],
        ['a field the template lacks', { customFieldFormItems: item('colour', 'text', 'red') }, 'customFieldFormItems[0].externalID'],
        ['a type other than the template’s', { customFieldFormItems: item('floors', 'text', '2') }, 'customFieldFormItems[0].type'],
        ['an unknown template', { customFieldsFormTemplateID: 987654 }, 'customFieldsFormTemplateID'],
      ];
      for (const [label, fields, field] of values) {
        it(`${label}, on a zone, a task and an employee: code 2 on ${field}`, async () => {
          const withTemplate = { customFieldsFormTemplateID: template, ...fields };
          await assertRefusedUnchanged(() => read(server.api, ZONES + '?withCustomTemplateItems=true'), () => server.api.post(ZONES, { name: 'z', ...withTemplate }), { code: 2, field }, 'zone');
          await assertRefusedUnchanged(() => read(server.api, TASKS), () => server.api.post(TASKS, { title: 't', startDate: '2026-06-01T09:00:00', ...withTemplate }), { code: 2, field }, 'task');
          await assertRefusedUnchanged(() => read(server.api, SUBSCRIBERS), () => server.api.post(SUBSCRIBERS, { name: 'e', ...withTemplate }), { code: 2, field }, 'employee');
        });
      }
      it('without a template, a value is checked against its own item type', async () => {
        const employee = await createEmployee(server.api, { name: 'Target' });
        await assertRefusedUnchanged(
          () => read(server.api, `${SUBSCRIBERS}/${employee}`),
          () => server.api.patch(`${SUBSCRIBERS}/${employee}`, { customFieldFormItems: [{ externalID: 'x', name: 'X', type: 'Integer', value: '1.5' }] }),
          { code: 2, field: 'customFieldFormItems[0].value' },
        );
      });
    });

    it('keeps accounts apart: another account’s template is 404 code 1020 and cannot be named', async () => {
      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(CUSTOM_FIELDS)).body, []);
      const state = () => read(server.api, `${CUSTOM_FIELDS}/${template}`);
      for (const call of [
        () => stranger.api.get(`${CUSTOM_FIELDS}/${template}`),
        () => stranger.api.put(`${CUSTOM_FIELDS}/${template}`, { name: 'x' }),
        () => stranger.api.patch(`${CUSTOM_FIELDS}/${template}`, { name: 'x' }),
        () => stranger.api.delete(`${CUSTOM_FIELDS}/${template}`),
      ]) {
        await assertRefusedUnchanged(state, call, { code: 1020 });
      }
      await assertRefusedUnchanged(() => read(stranger.api, ZONES + '?withCustomTemplateItems=true'), () => stranger.api.post(ZONES, { name: 'z', customFieldsFormTemplateID: template }), { code: 2, field: 'customFieldsFormTemplateID' });
    });
  });
}
