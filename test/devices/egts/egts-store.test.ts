import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { egtsProtocol } from '../../../src/devices/egts/egts-protocol.js';
import { startTrackerServer, type TrackerServer } from '../../../src/devices/tracker-server.js';
import { serviceTrackerSink } from '../../../src/devices/tracker-sink.js';
import { authInfo, egtsPacket, egtsRecord, posData, readEgtsPacket, termIdentity, type ReadEgtsPacket } from '../../../scripts/trackers/egts-encoder.js';
import { createEmployee, LOCATIONS, startServer, type Client, type TestServer } from '../../helpers/server.js';
import { dialects } from '../../helpers/stores.js';
import { TrackerClient } from '../../helpers/tracker-client.js';
import { AUTH_865905, AUTH_TID_3, DISPATCHER_2219, POSITION_OF_OID_100723, RECORD_OF_55_POSITIONS, RETRANSLATED_TEN_RECORDS } from './egts-frames.js';

const NOW = Date.parse('2024-05-20T10:00:00Z');
const WIDE = 'dateFrom=2000-01-01T00:00:00Z&dateTo=2100-01-01T00:00:00Z';
const RETRANSLATORS = '/v6/api/trackerManagement/egtsRetranslators';
const AUTH = 1;
const TELEDATA = 2;
const AUTH_PARAMS = 6;
const RESULT_CODE = 9;
const OBJ_NFOUND = 146;
const AUTH_DENIED = 151;
const iso = (text: string) => new Date(text).toISOString().replace('.000Z', '+00:00');

/** The record confirmations of a PT_RESPONSE: [confirmed record number, status]. */
const confirmations = (response: ReadEgtsPacket) => response.records.map((r) => [r.subrecords[0]!.data.readUInt16LE(0), r.subrecords[0]!.data[2]]);

/** The AUTH_SERVICE record the server sends on its own: [subrecord type, first data byte]. */
async function authRecord(client: TrackerClient): Promise<[number, number]> {
  const packet = readEgtsPacket(await client.readEgtsPacket());
  assert.equal(packet.records[0]!.serviceType, AUTH);
  const { type, data } = packet.records[0]!.subrecords[0]!;
  return [type, data[0]!];
}

for (const dialect of dialects) {
  describe(`EGTS into the store on ${dialect}`, () => {
    let server: TestServer;
    let listener: TrackerServer;
    const clients: TrackerClient[] = [];

    before(async () => {
      server = await startServer(dialect, { now: NOW });
      listener = await startTrackerServer({ protocol: egtsProtocol, sink: serviceTrackerSink(server.services), host: '127.0.0.1', clock: () => NOW });
    });
    after(async () => {
      for (const client of clients) client.close();
      await listener?.close();
      await server?.close();
    });

    async function connect() {
      const client = await TrackerClient.connect(listener.port);
      clients.push(client);
      return client;
    }

    async function listed(api: Client, subscriberID: number): Promise<any[]> {
      const response = await api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}&count=1000&${WIDE}`);
      assert.equal(response.status, 200, response.text);
      return response.body as any[];
    }
    const times = async (api: Client, subscriberID: number) => (await listed(api, subscriberID)).map((l) => l.locationDate).sort();

    /** A retranslator session authenticated with Traccar's captured DISPATCHER_IDENTITY (DID 2219), then AUTH_INFO. */
    async function retranslatorSession(password: string) {
      const client = await connect();
      await client.send(DISPATCHER_2219);
      assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[2, 0]]);
      assert.deepEqual(await authRecord(client), [AUTH_PARAMS, 0], 'asked for AUTH_INFO');
      await client.send(egtsPacket(egtsRecord({ number: 3, serviceType: AUTH, subrecords: [authInfo('dispatch', password)] }), { packetId: 10 }));
      assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[3, 0]]);
      const [type, result] = await authRecord(client);
      assert.equal(type, RESULT_CODE);
      return { client, result };
    }

    it('stores each of the 55 POS_DATA of one record as its own fix, with its own time', async () => {
      const subscriberID = await createEmployee(server.api, { name: 'Truck 865905', deviceKey: '865905', deviceProtocol: 'egts' });
      const client = await connect();
      await client.send(AUTH_865905);
      assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[25793, 0]]);
      assert.deepEqual(await authRecord(client), [RESULT_CODE, 0]);
      await client.send(RECORD_OF_55_POSITIONS);
      const response = readEgtsPacket(await client.readEgtsPacket());
      assert.deepEqual([response.response, confirmations(response)], [{ packetId: 25794, result: 0 }, [[25795, 0]]]);
      // Read at once: the confirmation came after the commit.
      const locations = await listed(server.api, subscriberID);
      assert.equal(locations.length, 55);
      assert.equal(new Set(locations.map((l) => l.locationDate)).size, 55, 'each fix with its own time');
      const sorted = locations.map((l) => l.locationDate).sort();
      assert.deepEqual([sorted[0], sorted[54]], [iso('2018-03-26T11:13:37Z'), iso('2018-03-26T11:17:42Z')]);
      const first = locations.find((l) => l.locationDate === iso('2018-03-26T11:13:37Z'));
      assert.deepEqual([Math.round(first.latitude * 1e5) / 1e5, Math.round(first.longitude * 1e5) / 1e5, first.velocity], [54.41076, 86.28934, 28]);
    });

    it('finds a terminal by a short object id (866) and stores its fixes', async () => {
      const truck = await createEmployee(server.api, { name: 'Object 866', deviceKey: '866', deviceProtocol: 'egts' });
      const client = await connect();
      const record = egtsRecord({ number: 1, serviceType: TELEDATA, objectId: 866, subrecords: [posData({ timeMs: NOW - 30_000, latitude: 59.93, longitude: 30.31 })] });
      await client.send(egtsPacket(record, { packetId: 1 }));
      assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[1, 0]]);
      assert.deepEqual(await times(server.api, truck), [iso(new Date(NOW - 30_000).toISOString())]);
    });

    it('a terminal with a device password: asked for it (AUTH_PARAMS); a wrong one refused with AUTH_DENIED; the right one stores', async () => {
      const truck = await createEmployee(server.api, { name: 'Locked 867', deviceKey: '867', deviceProtocol: 'egts', devicePassword: 'Term-Pass-1' });
      const identity = egtsRecord({ number: 1, serviceType: AUTH, subrecords: [termIdentity(867)] });
      const teledata = (number: number) => egtsRecord({ number, serviceType: TELEDATA, objectId: 867, subrecords: [posData({ timeMs: NOW - 20_000, latitude: 59.93, longitude: 30.31 })] });

      const bare = await connect();
      await bare.send(egtsPacket(teledata(1), { packetId: 1 }));
      assert.deepEqual(confirmations(readEgtsPacket(await bare.readEgtsPacket())), [[1, AUTH_DENIED]], 'its object id alone does not open it');
      await bare.expectClosed();

      const wrong = await connect();
      await wrong.send(egtsPacket(Buffer.concat([identity, teledata(2)]), { packetId: 1 }));
      assert.deepEqual(confirmations(readEgtsPacket(await wrong.readEgtsPacket())), [[1, 0], [2, AUTH_DENIED]]);
      assert.deepEqual(await authRecord(wrong), [AUTH_PARAMS, 0]);
      await wrong.send(egtsPacket(egtsRecord({ number: 3, serviceType: AUTH, subrecords: [authInfo('', 'Guess-Pass-1')] }), { packetId: 2 }));
      readEgtsPacket(await wrong.readEgtsPacket());
      assert.deepEqual(await authRecord(wrong), [RESULT_CODE, AUTH_DENIED]);
      await wrong.expectClosed();
      assert.deepEqual(await times(server.api, truck), []);

      const right = await connect();
      await right.send(egtsPacket(Buffer.concat([identity, egtsRecord({ number: 2, serviceType: AUTH, subrecords: [authInfo('', 'Term-Pass-1')] }), teledata(3)]), { packetId: 1 }));
      assert.deepEqual(confirmations(readEgtsPacket(await right.readEgtsPacket())), [[1, 0], [2, 0], [3, 0]]);
      assert.deepEqual(await authRecord(right), [RESULT_CODE, 0]);
      assert.deepEqual(await times(server.api, truck), [iso(new Date(NOW - 20_000).toISOString())]);
    });

    it('a retranslator: each record on its own vehicle; foreign and unknown OIDs refused with OBJ_NFOUND and not stored', async () => {
      const other = await server.newAccount();
      const created = await server.api.post(RETRANSLATORS, { dispatcherID: 2219, name: 'Regional platform', password: 'first-Account-1' });
      assert.equal(created.status, 201, created.text);
      // The other account knows the same platform as dispatcher 2219 too: the password tells them apart.
      assert.equal((await other.api.post(RETRANSLATORS, { dispatcherID: 2219, name: 'Same platform', password: 'second-Account-2' })).status, 201);
      const truck1 = await createEmployee(server.api, { name: 'A 2586625890', deviceKey: '2586625890', deviceProtocol: 'egts' });
      const truck2 = await createEmployee(server.api, { name: 'A 3233214134', deviceKey: '3233214134', deviceProtocol: 'egts' });
      const truck3 = await createEmployee(server.api, { name: 'A 3636500978', deviceKey: '3636500978', deviceProtocol: 'egts', devicePassword: 'Term-Pass-3' });
      const foreign = await createEmployee(other.api, { name: 'B 4152706699', deviceKey: '4152706699', deviceProtocol: 'egts' });

      const { client, result } = await retranslatorSession('first-Account-1');
      assert.equal(result, 0);
      await client.send(RETRANSLATED_TEN_RECORDS);
      const response = readEgtsPacket(await client.readEgtsPacket());
      assert.deepEqual(response.response, { packetId: 3, result: 0 });
      // RN 5..14 name 2586625890, 208789630, 3233214134 ×2, 4152706699 (the other account's), 3636500978 ×2, then three unknown.
      assert.deepEqual(confirmations(response), [[5, 0], [6, OBJ_NFOUND], [7, 0], [8, 0], [9, OBJ_NFOUND], [10, 0], [11, 0], [12, OBJ_NFOUND], [13, OBJ_NFOUND], [14, OBJ_NFOUND]]);
      assert.deepEqual(await times(server.api, truck1), [iso('2019-02-20T07:24:52Z')]);
      assert.deepEqual(await times(server.api, truck2), [iso('2019-02-20T07:24:55Z'), iso('2019-02-20T07:25:01Z')]);
      // Its device password guards the terminal's own login; the retranslator proved the account's credentials.
      assert.deepEqual(await times(server.api, truck3), [iso('2019-02-20T07:24:57Z'), iso('2019-02-20T07:24:59Z')]);
      assert.deepEqual(await times(other.api, foreign), [], 'nothing written into the other account');

      // The same dispatcher id with the other account's password is that account's session.
      const second = await retranslatorSession('second-Account-2');
      assert.equal(second.result, 0);
      await second.client.send(RETRANSLATED_TEN_RECORDS);
      assert.deepEqual(confirmations(readEgtsPacket(await second.client.readEgtsPacket())).filter(([, status]) => status === 0), [[9, 0]]);
      assert.deepEqual(await times(other.api, foreign), [iso('2019-02-20T07:24:56Z')]);
      assert.equal((await listed(server.api, truck1)).length, 1, 'the first account got nothing more');
    });

    it('refuses a retranslator with a wrong password or an unknown dispatcher id: AUTH_DENIED, nothing stored, closed', async () => {
      const truck = await createEmployee(server.api, { name: 'A 208789630', deviceKey: '208789630', deviceProtocol: 'egts' });
      const wrong = await retranslatorSession('not-the-password');
      assert.equal(wrong.result, AUTH_DENIED);
      await wrong.client.expectClosed();

      const stranger = await connect();
      const identity = egtsRecord({ number: 1, serviceType: AUTH, subrecords: [[5, Buffer.from([0, 0x39, 0x30, 0, 0])], authInfo('x', 'first-Account-1')] });
      await stranger.send(egtsPacket(Buffer.concat([identity, egtsRecord({ number: 2, serviceType: TELEDATA, objectId: 208789630, subrecords: [posData({ timeMs: NOW, latitude: 1, longitude: 1 })] })]), { packetId: 1 }));
      assert.deepEqual(confirmations(readEgtsPacket(await stranger.readEgtsPacket())), [[1, 0], [2, AUTH_DENIED]]);
      assert.deepEqual(await authRecord(stranger), [RESULT_CODE, AUTH_DENIED]);
      await stranger.expectClosed();
      assert.deepEqual(await times(server.api, truck), []);
    });

    it('a terminal is one vehicle: its first record\'s OID; a record of another OID is refused, not stored anywhere', async () => {
      const truck = await createEmployee(server.api, { name: 'TID 3', deviceKey: '864495034643376', deviceProtocol: 'egts' });
      const neighbour = await createEmployee(server.api, { name: 'OID 100724', deviceKey: '100724', deviceProtocol: 'egts' });
      const client = await connect();
      await client.send(AUTH_TID_3);
      readEgtsPacket(await client.readEgtsPacket());
      assert.deepEqual(await authRecord(client), [RESULT_CODE, 0]);
      // Captured: the terminal's teledata names OID 100723, neither its TID (3) nor its AUTH record's OID (897).
      await client.send(POSITION_OF_OID_100723);
      assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[3587, 0]]);
      const record = (number: number, objectId: number) => egtsRecord({ number, serviceType: TELEDATA, objectId, subrecords: [posData({ timeMs: NOW - 60_000, latitude: 55, longitude: 37 })] });
      await client.send(egtsPacket(Buffer.concat([record(1, 100724), record(2, 100723)]), { packetId: 5 }));
      assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[1, OBJ_NFOUND], [2, 0]]);
      assert.deepEqual(await times(server.api, truck), [iso('2018-04-17T06:49:28Z'), iso(new Date(NOW - 60_000).toISOString())]);
      assert.deepEqual(await times(server.api, neighbour), []);
    });
  });
}
