import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

for (const dialect of dialects) {
  describe(`employees on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Asia/Yekaterinburg' });
    });
    after(() => server.close());

    it('creates an employee with the defaults and answers 201 with a Location header', async () => {
      const r = await server.api.post(SUBSCRIBERS, { name: 'Ivan Petrov', phone: '79001234567', externalSubscriberID: 'EMP-1' });
      assert.equal(r.status, 201);
      const id = r.body.subscriberID;
      assert.equal(r.headers.get('location'), `${SUBSCRIBERS}/${id}`);
      assert.match(r.body.deviceKey, /^[a-z2-9]{12}$/, 'a device key is generated for the phone');
      assert.deepEqual(r.body, {
        subscriberID: id,
        name: 'Ivan Petrov',
        regionID: null,
        isActive: true,
        subscriberTariffTypeID: null,
        canTrack: false,
        canRequest: false,
        canSend: false,
        isOnline: false,
        isLocateEnabled: true,
        isBlockEnabled: true,
        phone: '79001234567',
        icon: '',
        subscriberGroupID: null,
        externalSubscriberID: 'EMP-1',
        allowedOvertime: 0,
        workScheduleID: null,
        startLocationLatitude: null,
        startLocationLongitude: null,
        customFieldsFormTemplateID: null,
        customFieldFormItems: [],
        competences: [],
        zones: [],
        mapObjects: [],
        subscriberTypeID: null,
        userBossID: null,
        vehicleSettings: { speedLimit: 90, prolongedSpeedSeconds: 60, fuelFillThreshold: 10, fuelDrainThreshold: 10, sensorLimits: [], initialOdometer: 0 },
        deviceKey: r.body.deviceKey,
        deviceProtocol: null,
        hasDevicePassword: false,
        // Lokator's own: a person or a vehicle, and the device it reports with.
        kind: 'person',
        deviceType: 'phone',
        vehiclePlate: '',
        vehicleModel: '',
      });
      // The device key is the phone's credential: shown whole once, in this answer, then only its end.
      const { deviceKey, ...read } = r.body;
      // Reads add the device's status: nothing has connected yet.
      const view = { ...read, deviceKeyHint: `…${String(deviceKey).slice(-4)}`, deviceStatus: { lastAddress: null, lastConnectionDate: null, lastDataDate: null } };
      assert.deepEqual((await server.api.get(`${SUBSCRIBERS}/${id}`)).body, view);
      assert.deepEqual((await server.api.get(`${SUBSCRIBERS}/externalID/EMP-1`)).body, view);
      const listed = (await server.api.get(SUBSCRIBERS)).body as Record<string, unknown>[];
      assert.ok(listed.length > 0 && listed.every((e) => !('deviceKey' in e)), 'no read lists a device key');
      assert.ok(!(await server.api.get(SUBSCRIBERS)).text.includes(String(deviceKey)), 'the key appears nowhere in a list');
    });

    it('stores every field of interface 2.9, accepting both spellings of the template id', async () => {
      // The group and the template an employee names must exist.
      const group = (await server.api.post('/v6/api/subscriberManagement/subscriberGroups', { name: 'Drivers' })).body.subscriberGroupID;
      const template = (
        await server.api.post('/v6/api/customFieldsManagement/customFields', { name: 'Driver', customFieldFormItems: [{ externalID: 'cf1', name: 'Licence', type: 'string' }] })
      ).body.customFieldsFormTemplateID;
      const body = {
        name: 'Olga',
        regionID: 7,
        isActive: true,
        subscriberTariffTypeID: 12,
        canTrack: true,
        canRequest: true,
        canSend: true,
        isLocateEnabled: false,
        isBlockEnabled: false,
        icon: 'truck',
        subscriberGroupID: group,
        externalSubscriberID: 'EMP-2',
        allowedOvertime: 1.5,
        workScheduleID: 4,
        startLocationLatitude: 56.8389,
        startLocationLongitude: 60.6057,
        customFieldFormTemplateID: template,
        customFieldFormItems: [{ externalID: 'cf1', name: 'Licence', value: 'B, C', type: 'String' }],
        competences: [{ competenceID: 1, level: 2, efficiency: 0.9 }],
        zones: [{ zoneID: 5, bindingType: 0 }],
        mapObjects: [{ objectID: 9 }],
        subscriberTypeID: 1,
        userBossID: 2,
        vehicleSettings: { speedLimit: 70, sensorLimits: [{ sensorID: 1, min: -20, max: 8 }] },
        deviceKey: 'olga-phone-1',
        isOnline: true,
        somethingUnknown: 'is ignored',
      };
      const r = await server.api.post(SUBSCRIBERS, body);
      assert.equal(r.status, 201);
      const { somethingUnknown: _u, customFieldFormTemplateID: _t, isOnline: _o, ...expected } = body;
      assert.deepEqual(r.body, {
        ...expected,
        subscriberID: r.body.subscriberID,
        phone: '',
        isOnline: false,
        customFieldsFormTemplateID: template,
        deviceProtocol: null,
        hasDevicePassword: false,
        // Lokator's own: a person or a vehicle, and the device it reports with.
        kind: 'person',
        deviceType: 'phone',
        vehiclePlate: '',
        vehicleModel: '',
        vehicleSettings: { speedLimit: 70, prolongedSpeedSeconds: 60, fuelFillThreshold: 10, fuelDrainThreshold: 10, sensorLimits: [{ sensorID: 1, min: -20, max: 8 }], initialOdometer: 0 },
      });
      assert.equal('somethingUnknown' in r.body, false);
    });

    it('replaces with PUT (omitted fields take defaults, the device key stays) and changes with PATCH, both answering 200 with the employee', async () => {
      const created = await server.api.post(SUBSCRIBERS, { name: 'Petr', phone: '7911', icon: 'car', vehicleSettings: { speedLimit: 60, fuelFillThreshold: 20 } });
      const id = created.body.subscriberID;
      const put = await server.api.put(`${SUBSCRIBERS}/${id}`, { name: 'Petr I.', canTrack: true });
      assert.equal(put.status, 200, put.text);
      const replaced = (await server.api.get(`${SUBSCRIBERS}/${id}`)).body;
      assert.deepEqual(put.body, replaced, 'PUT answers the employee as GET shows it');
      assert.equal(replaced.name, 'Petr I.');
      assert.equal(replaced.phone, '', 'omitted by PUT: default');
      assert.equal(replaced.canTrack, true);
      assert.equal(replaced.vehicleSettings.speedLimit, 90);
      assert.equal(replaced.deviceKeyHint, `…${created.body.deviceKey.slice(-4)}`, 'the device key stays');

      const patch = await server.api.patch(`${SUBSCRIBERS}/${id}`, { phone: '7922', vehicleSettings: { fuelDrainThreshold: 5 }, regionID: null });
      assert.equal(patch.status, 200, patch.text);
      const patched = (await server.api.get(`${SUBSCRIBERS}/${id}`)).body;
      assert.deepEqual(patch.body, patched, 'PATCH answers the employee as GET shows it');
      assert.deepEqual(patched, { ...replaced, phone: '7922', vehicleSettings: { ...replaced.vehicleSettings, fuelDrainThreshold: 5 } });

      const nullName = await server.api.patch(`${SUBSCRIBERS}/${id}`, { name: null });
      assert.equal(nullName.status, 400);
      assert.equal(nullName.body.code, 52);
      assert.deepEqual((await server.api.get(`${SUBSCRIBERS}/${id}`)).body, patched, 'a refused PATCH changes nothing');
    });

    it('lists with filters and can leave custom fields out', async () => {
      const groupID = (await server.api.post('/v6/api/subscriberManagement/subscriberGroups', { name: 'Grouped' })).body.subscriberGroupID;
      const group = await server.api.post(SUBSCRIBERS, { name: 'Grouped', subscriberGroupID: groupID, isActive: false, customFieldFormItems: [{ externalID: 'x', name: 'X', value: '1', type: 'integer' }] });
      const all = (await server.api.get(SUBSCRIBERS)).body;
      assert.deepEqual(all.map((e: any) => e.subscriberID), [...all.map((e: any) => e.subscriberID)].sort((a, b) => a - b));
      const inactive = (await server.api.get(`${SUBSCRIBERS}?isActive=false`)).body;
      assert.deepEqual(inactive.map((e: any) => e.subscriberID), [group.body.subscriberID]);
      const grouped = (await server.api.get(`${SUBSCRIBERS}?subscriberGroupIDs=${groupID},${groupID + 1}`)).body;
      assert.deepEqual(grouped.map((e: any) => e.subscriberID), [group.body.subscriberID]);
      const picked = (await server.api.get(`${SUBSCRIBERS}?subscriberIDs[]=${all[0].subscriberID}&subscriberIDs[]=${group.body.subscriberID}`)).body;
      assert.equal(picked.length, 2);
      const bare = (await server.api.get(`${SUBSCRIBERS}?withCustomTemplateItems=false`)).body;
      assert.ok(bare.every((e: any) => !('customFieldFormItems' in e)));
    });

    it('refuses a second employee with the same externalSubscriberID (409 code 4) or device key (409 code 1008)', async () => {
      const dup = await server.api.post(SUBSCRIBERS, { name: 'Copy', externalSubscriberID: 'EMP-1' });
      assert.equal(dup.status, 409);
      assert.equal(dup.body.code, 4);
      assert.equal(dup.body.description, 'SUBSCRIBER_EXTERNAL_ID_EXISTS');
      const other = await server.api.post(SUBSCRIBERS, { name: 'Other', externalSubscriberID: 'EMP-9' });
      const patchDup = await server.api.patch(`${SUBSCRIBERS}/${other.body.subscriberID}`, { externalSubscriberID: 'EMP-1' });
      assert.equal(patchDup.status, 409);
      assert.equal(patchDup.body.code, 4);
      const keyDup = await server.api.post(SUBSCRIBERS, { name: 'Key copy', deviceKey: 'olga-phone-1' });
      assert.equal(keyDup.status, 409);
      assert.equal(keyDup.body.code, 1008);
    });

    it('deletes: the employee is gone (404 code 12), its external id is free again, its fixes stay in the history', async () => {
      const created = await server.api.post(SUBSCRIBERS, { name: 'Leaving', externalSubscriberID: 'EMP-LEAVE' });
      const id = created.body.subscriberID;
      await server.api.post(LOCATIONS, [{ subscriberID: id, locationDate: new Date().toISOString(), latitude: 56.8, longitude: 60.6 }]);
      assert.equal((await server.api.delete(`${SUBSCRIBERS}/${id}`)).status, 204);
      for (const r of [
        await server.api.get(`${SUBSCRIBERS}/${id}`),
        await server.api.delete(`${SUBSCRIBERS}/${id}`),
        await server.api.put(`${SUBSCRIBERS}/${id}`, { name: 'Back' }),
        await server.api.get(`${SUBSCRIBERS}/externalID/EMP-LEAVE`),
      ]) {
        assert.equal(r.status, 404);
        assert.equal(r.body.code, 12);
      }
      const history = (await server.api.get(`${LOCATIONS}?subscriberIDs=${id}`)).body;
      assert.equal(history.length, 1);
      const reused = await server.api.post(SUBSCRIBERS, { name: 'Newcomer', externalSubscriberID: 'EMP-LEAVE' });
      assert.equal(reused.status, 201);
      const late = await server.api.post(LOCATIONS, [{ subscriberID: id, locationDate: new Date().toISOString(), latitude: 1, longitude: 1 }]);
      assert.equal(late.status, 404, 'no new fixes for a deleted employee');
    });

    it('answers lastLocations with the latest fix (by time) of each employee', async () => {
      const a = (await server.api.post(SUBSCRIBERS, { name: 'A' })).body.subscriberID;
      const b = (await server.api.post(SUBSCRIBERS, { name: 'B' })).body.subscriberID;
      const t = Date.now() - 600_000;
      await server.api.post(LOCATIONS, [
        { subscriberID: a, locationDate: new Date(t + 60_000).toISOString(), latitude: 1, longitude: 1 },
        // Arrives later but is older: not the latest.
        { subscriberID: a, locationDate: new Date(t).toISOString(), latitude: 2, longitude: 2 },
        { subscriberID: b, locationDate: new Date(t).toISOString(), latitude: 3, longitude: 3 },
      ]);
      const r = await server.api.get(`${SUBSCRIBERS}/lastLocations?subscriberIDs=${a},${b}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.map((l: any) => [l.subscriberID, l.latitude]), [[a, 1], [b, 3]]);
      assert.match(r.body[0].locationDate, /\+05:00$/, 'in the account zone');
    });

    it('keeps accounts apart: a stranger gets 404 for every employee route and an empty list', async () => {
      const mine = (await server.api.get(SUBSCRIBERS)).body[0];
      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(SUBSCRIBERS)).body, []);
      assert.deepEqual((await stranger.api.get(`${SUBSCRIBERS}/lastLocations`)).body, []);
      const attempts = [
        await stranger.api.get(`${SUBSCRIBERS}/${mine.subscriberID}`),
        await stranger.api.get(`${SUBSCRIBERS}/externalID/EMP-1`),
        await stranger.api.put(`${SUBSCRIBERS}/${mine.subscriberID}`, { name: 'Hijacked' }),
        await stranger.api.patch(`${SUBSCRIBERS}/${mine.subscriberID}`, { name: 'Hijacked' }),
        await stranger.api.delete(`${SUBSCRIBERS}/${mine.subscriberID}`),
      ];
      for (const r of attempts) {
        assert.equal(r.status, 404);
        assert.equal(r.body.code, 12);
      }
      assert.deepEqual((await server.api.get(`${SUBSCRIBERS}/${mine.subscriberID}`)).body, mine);
      // The same external id in another account is no conflict.
      assert.equal((await stranger.api.post(SUBSCRIBERS, { name: 'Theirs', externalSubscriberID: 'EMP-1' })).status, 201);
    });
  });
}
