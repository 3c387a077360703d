import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { diskFileStore, s3FileStore, type FileStore } from '../../src/files/files.js';
import { createTemplate, FORMS } from '../clients/client-fixtures.js';
import { createEmployee, startServer, type Client, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TASKS } from '../tasks/task-fixtures.js';

/**
 * Form files end to end, on the disk store and on an S3 bucket (s3rver on loopback): the
 * employee's app uploads a photo, saves the task's form naming it, and an API client finds the
 * photo in `formManagement/forms` `items` and downloads the same bytes; another account cannot.
 */
const NOW = Date.parse('2026-03-02T08:20:00Z');
const MAX_BYTES = 64 * 1024;
const PER_MINUTE = 10;
const BUCKET = 'lokator-files';

/** A JPEG as far as its first bytes go, then noise: what a downscaled camera picture starts with. */
const jpeg = (size = 3000) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size)]);
const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(500)]);

interface StoreUnderTest {
  name: string;
  open(): Promise<{ store: FileStore; close(): Promise<void> }>;
}

const stores: StoreUnderTest[] = [
  {
    name: 'disk',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'lokator-files-test-'));
      return { store: diskFileStore(dir), close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 's3',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'lokator-s3rver-'));
      const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
      const { port } = (await s3rver.run()) as AddressInfo;
      const store = s3FileStore({
        bucket: BUCKET,
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      });
      return {
        store,
        close: async () => {
          store.close();
          await s3rver.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];

for (const dialect of dialects) {
  for (const storeUnderTest of stores) {
    describe(`form files on ${dialect}, ${storeUnderTest.name} store`, () => {
      let server: TestServer;
      let closeStore: () => Promise<void>;
      let store: FileStore;
      let template: number;
      let courier: number;
      let taskId: number;
      let otherTaskId: number;

      const phone = (key = 'courier-key-1') => ({ client: server.api.withToken(null), headers: { authorization: `Device ${key}` } });
      const upload = (task: number, bytes: Buffer, headers: Record<string, string> = {}, query = '', key = 'courier-key-1') => {
        const { client, headers: auth } = phone(key);
        return client.post(`/mobile/v1/tasks/${task}/files${query}`, new Uint8Array(bytes), { ...auth, 'content-type': 'image/jpeg', ...headers });
      };
      const mobile = (method: 'get' | 'post', path: string, body?: unknown, headers: Record<string, string> = {}) => {
        const { client, headers: auth } = phone();
        return method === 'get' ? client.get(path, { ...auth, ...headers }) : client.post(path, body, { ...auth, ...headers });
      };
      const fileRows = async () => Number((await server.database.db.selectFrom('form_files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const task = async (api: Client, body: Record<string, unknown>) => {
        const r = await api.post(TASKS, { title: 'Deliver order 5531', startDate: '2026-03-02T10:00:00Z', deadline: '2026-03-02T12:00:00Z', ...body });
        assert.equal(r.status, 201, r.text);
        return r.body.taskID as number;
      };

      before(async () => {
        const opened = await storeUnderTest.open();
        store = opened.store;
        closeStore = opened.close;
        server = await startServer(dialect, { now: NOW, timeZone: 'Europe/Moscow', services: { files: { store, maxBytes: MAX_BYTES, uploadsPerMinute: PER_MINUTE } } });
        courier = await createEmployee(server.api, { name: 'Courier', deviceKey: 'courier-key-1' });
        await createEmployee(server.api, { name: 'Second courier', deviceKey: 'courier-key-2' });
        template = await createTemplate(server.api, [['payment', 'string'], ['photo', 'picture']], 'Delivery report');
        taskId = await task(server.api, { subscriberID: courier, customFieldsFormTemplateID: template, clientName: 'Anna Volkova', clientPhone: '79161234567', commentPolicy: 1 });
        otherTaskId = await task(server.api, { subscriberID: courier, customFieldsFormTemplateID: template, startDate: '2026-03-03T10:00:00Z', deadline: null });
      });
      after(async () => {
        await server?.close();
        await closeStore?.();
      });

      it('lists the employee’s tasks with their form’s template, and says whose the key is', async () => {
        const me = await mobile('get', '/mobile/v1/me');
        assert.equal(me.status, 200, me.text);
        assert.deepEqual(me.body, { subscriberID: courier, name: 'Courier', accountName: 'Test account', timeZone: 'Europe/Moscow', locale: me.body.locale });
        const list = await mobile('get', '/mobile/v1/tasks?days=3');
        assert.equal(list.status, 200, list.text);
        assert.equal(list.body.from, '2026-03-02T00:00:00+03:00');
        assert.deepEqual(list.body.tasks.map((t: any) => t.taskID), [taskId, otherTaskId]);
        const [first] = list.body.tasks;
        assert.equal(first.clientPhone, '79161234567');
        assert.equal(first.commentPolicy, 1);
        assert.deepEqual(first.form.fields.map((f: any) => [f.externalID, f.type]), [['payment', 'string'], ['photo', 'picture']]);
        assert.deepEqual(list.body.statuses.map((s: any) => s.key), ['new', 'accepted', 'rejected', 'done', 'inProgress']);
        const unknown = await server.api.withToken(null).get('/mobile/v1/tasks', { authorization: 'Device nobody-has-this-key' });
        assert.equal(unknown.status, 401);
        assert.equal(unknown.body.code, 1);
      });

      it('takes the app’s positions as fixes of the key’s employee, who turns online', async () => {
        const sent = await mobile('post', '/mobile/v1/locations', [{ locationDate: '2026-03-02T11:19:30+03:00', latitude: 55.7558, longitude: 37.6173, accuracy: 14, velocity: 4.5 }]);
        assert.equal(sent.status, 201, sent.text);
        assert.deepEqual(sent.body, { accepted: 1 });
        const fixes = await server.api.get(`/v6/api/globalPositioningManagement/locations?subscriberIDs=${courier}&dateFrom=2026-03-02T00:00:00Z&dateTo=2026-03-02T23:00:00Z`);
        assert.equal(fixes.status, 200, fixes.text);
        assert.equal(fixes.body.length, 1);
        assert.equal(fixes.body[0].latitude, 55.7558);
        const employee = await server.api.get(`/v6/api/subscriberManagement/subscribers/${courier}`);
        assert.equal(employee.body.isOnline, true);
        const ahead = await mobile('post', '/mobile/v1/locations', [{ locationDate: '2026-03-05T11:19:30+03:00', latitude: 55.7558, longitude: 37.6173 }]);
        assert.equal(ahead.status, 400);
        assert.equal(ahead.body.code, 2);
      });

      it('uploads a photo, saves the form naming it, and an API client downloads the same bytes from items; another account gets 404', async () => {
        const photo = jpeg();
        const stored = await upload(taskId, photo, { 'idempotency-key': 'photo-1' }, '?actedAt=2026-03-02T11:05:00%2B03:00&fileName=door.jpg');
        assert.equal(stored.status, 201, stored.text);
        assert.equal(stored.body.contentType, 'image/jpeg');
        assert.equal(stored.body.size, photo.length);
        assert.equal(stored.body.createdDate, '2026-03-02T11:05:00+03:00');
        const fileID = stored.body.fileID as number;

        const saved = await mobile('post', `/mobile/v1/tasks/${taskId}/form`, { customFieldFormItems: [{ externalID: 'payment', value: 'cash' }, { externalID: 'photo', value: String(fileID) }] }, { 'idempotency-key': 'form-1' });
        assert.equal(saved.status, 200, saved.text);

        const forms = await server.api.get(`${FORMS}?taskIDs=${taskId}`);
        assert.equal(forms.status, 200, forms.text);
        const [form] = forms.body;
        assert.deepEqual(form.customFieldFormItems.map((i: any) => [i.externalID, i.value]), [['payment', 'cash'], ['photo', String(fileID)]]);
        const item = form.items.find((i: any) => i.externalID === 'photo');
        assert.equal(item.type, 'picture');
        assert.equal(item.pictures.length, 1);
        assert.equal(item.pictures[0].pictureID, fileID);
        const url = new URL(item.pictures[0].url);
        assert.equal(url.origin, server.baseUrl);

        const download = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } });
        assert.equal(download.status, 200);
        assert.equal(download.headers.get('content-type'), 'image/jpeg');
        assert.ok(Buffer.from(await download.arrayBuffer()).equals(photo), 'the same bytes');

        const stranger = await server.newAccount();
        const refused = await stranger.api.get(url.pathname);
        assert.equal(refused.status, 404);
        assert.equal(refused.body.code, 1029);
        const anonymous = await fetch(url);
        assert.equal(anonymous.status, 401);
        assert.deepEqual((await stranger.api.get(`${FORMS}?taskIDs=${taskId}`)).body, []);
      });

      it('stores a retried upload once: the same Idempotency-Key answers the first file', async () => {
        const before = await fileRows();
        const photo = jpeg();
        const first = await upload(taskId, photo, { 'idempotency-key': 'photo-retry' });
        const again = await upload(taskId, photo, { 'idempotency-key': 'photo-retry' });
        assert.equal(first.status, 201, first.text);
        assert.equal(again.status, 201, again.text);
        assert.equal(again.body.fileID, first.body.fileID);
        assert.equal(again.headers.get('idempotent-replayed'), 'true');
        assert.equal(await fileRows(), before + 1);
        // Another employee's same key is theirs: it does not replay the first one's file.
        const theirs = await upload(otherTaskId, photo, { 'idempotency-key': 'photo-retry' }, '', 'courier-key-2');
        assert.equal(theirs.status, 404, 'not their task');
      });

      it('refuses a file that is not a picture or PDF (415), one too big (413) and another employee’s task (404), storing nothing', async () => {
        const before = await fileRows();
        const script = await upload(taskId, Buffer.from('#!/bin/sh\nrm -rf /\n'), { 'content-type': 'image/jpeg' });
        assert.equal(script.status, 415, script.text);
        assert.equal(script.body.code, 1011);
        const big = await upload(taskId, jpeg(MAX_BYTES + 10));
        assert.equal(big.status, 413, big.text);
        assert.equal(big.body.code, 1010);
        const empty = await upload(taskId, Buffer.alloc(0));
        assert.equal(empty.status, 400, empty.text);
        assert.equal(await fileRows(), before);
        const pngFile = await upload(taskId, png(), { 'content-type': 'application/octet-stream' });
        assert.equal(pngFile.status, 201, pngFile.text);
        assert.equal(pngFile.body.contentType, 'image/png', 'the type is the bytes’, not the header’s');
      });

      it('refuses a form naming a file of another task', async () => {
        const elsewhere = await upload(otherTaskId, jpeg());
        assert.equal(elsewhere.status, 201, elsewhere.text);
        const saved = await mobile('post', `/mobile/v1/tasks/${taskId}/form`, { customFieldFormItems: [{ externalID: 'photo', value: String(elsewhere.body.fileID) }] });
        assert.equal(saved.status, 400, saved.text);
        assert.equal(saved.body.code, 2);
        assert.ok(Object.keys(saved.body.validationErrors).some((field) => field.startsWith('customFieldFormItems')));
      });

      it('throttles uploads per key: 429 with Retry-After, while another key goes on', async () => {
        const busy = await createEmployee(server.api, { name: 'Busy courier', deviceKey: 'courier-key-4' });
        const busyTask = await task(server.api, { subscriberID: busy });
        for (let i = 0; i < PER_MINUTE; i++) {
          const r = await upload(busyTask, jpeg(100), {}, '', 'courier-key-4');
          assert.equal(r.status, 201, r.text);
        }
        const refused = await upload(busyTask, jpeg(100), {}, '', 'courier-key-4');
        assert.equal(refused.status, 429, refused.text);
        assert.equal(refused.body.code, 1012);
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
        const other = await upload(otherTaskId, jpeg(100));
        assert.equal(other.status, 201, 'another key is not held back');
      });

      it('keeps the employee’s time of a status change sent late, in the task, its history and its event', async () => {
        const acted = '2026-03-02T09:41:07+03:00';
        const sent = await mobile('post', `/mobile/v1/tasks/${taskId}/status`, { status: 3, comment: 'Handed over', actedAt: acted }, { 'idempotency-key': 'status-1' });
        assert.equal(sent.status, 200, sent.text);
        assert.equal(sent.body.lastStatusChangeDate, acted);
        const again = await mobile('post', `/mobile/v1/tasks/${taskId}/status`, { status: 3, comment: 'Handed over', actedAt: acted }, { 'idempotency-key': 'status-1' });
        assert.equal(again.status, 200);
        const history = await server.api.get(`${TASKS}/${taskId}/history`);
        const changes = history.body.filter((c: any) => 'status' in c.changedValues);
        assert.equal(changes.length, 1, 'one status change, however often it was sent');
        assert.equal(changes[0].changeDate, acted);
        assert.equal(changes[0].subscriberID, courier);
        const tooOld = await mobile('post', `/mobile/v1/tasks/${taskId}/status`, { status: 4, actedAt: '2026-01-01T09:00:00+03:00' });
        assert.equal(tooOld.status, 400);
        assert.equal(tooOld.body.code, 2);
      });

      it('removes a deleted task’s files at the next retention run, and keeps a living task’s', async () => {
        const third = await createEmployee(server.api, { name: 'Third courier', deviceKey: 'courier-key-3' });
        const doomed = await task(server.api, { subscriberID: third, customFieldsFormTemplateID: template });
        const stored = await upload(doomed, jpeg(), {}, '', 'courier-key-3');
        assert.equal(stored.status, 201, stored.text);
        const fileID = stored.body.fileID as number;
        const { storage_key: key } = await server.database.db.selectFrom('form_files').select('storage_key').where('id', '=', fileID).executeTakeFirstOrThrow();
        assert.ok(await store.get(key), 'the bytes are in the store');
        assert.equal((await server.api.delete(`${TASKS}/${doomed}`)).status, 204);
        const report = await server.services.retention.runOnce();
        assert.equal(report.files.rows, 1, JSON.stringify(report.files));
        assert.equal((await server.api.get(`/v6/api/fileManagement/files/${fileID}`)).status, 404);
        assert.equal(await store.get(key), null, 'the bytes are gone from the store');
        const forms = await server.api.get(`${FORMS}?taskIDs=${taskId}`);
        const photo = forms.body[0].items.find((i: any) => i.externalID === 'photo');
        assert.equal(photo.pictures.length, 1, 'the living task’s photo stays');
      });
    });
  }
}
