import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { teltonikaProtocol } from '../../src/devices/teltonika/teltonika-protocol.js';
import { startTrackerServer, type TrackerServer } from '../../src/devices/tracker-server.js';
import { serviceTrackerSink } from '../../src/devices/tracker-sink.js';
import { wialonIpsProtocol } from '../../src/devices/wialon-ips/wialon-ips-protocol.js';
import { wialonLogin } from '../../scripts/trackers/tracker-encoders.js';
import { startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TrackerClient } from '../helpers/tracker-client.js';

/**
 * Published frames of each protocol, sent as they are over TCP to the stored listeners, and what
 * the store kept of them, field by field. Each frame names its source. What a frame shows that
 * Lokator does not do is listed in docs/operators/device-trust.md ("What the listeners decode").
 */

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

// Teltonika wiki, "Teltonika Data Sending Protocols" (wiki.teltonika-gps.com/view/Teltonika_Data_Sending_Protocols):
/** Codec 8, first example: one record, 2019-06-10 10:04:46, no fix, IO 21=3, 1=1, 66=0x5E0F, 241=0x601A, 78=0. */
const WIKI_CODEC8_1 = hex('000000000000003608010000016B40D8EA30010000000000000000000000000000000105021503010101425E0F01F10000601A014E0000000000000000010000C7CF');
/** Codec 8, third example: two records (a buffered batch), IO 1 = 0 then 1. */
const WIKI_CODEC8_TWO = hex('000000000000004308020000016B40D57B480100000000000000000000000000000001010101000000000000016B40D5C198010000000000000000000000000000000101010101000000020000252C');
/** Codec 8 Extended example: 2-byte IO ids, IO 1=1, 17=0x1D, 16=0x015E2C88 (odometer, m), 11, 14, an empty NX group. */
const WIKI_CODEC8E = hex('000000000000004A8E010000016B412CEE000100000000000000000000000000000000010005000100010100010011001D00010010015E2C880002000B000000003544C87A000E000000001DD7E06A00000100002994');
// Traccar, src/test/java/org/traccar/protocol/TeltonikaProtocolDecoderTest.java (github.com/traccar/traccar): an FMB record with a fix.
const TRACCAR_FMB = hex('000000000000004c08010000016818d500580009c28d9f1cb3757a00be00c60f0053000f06f0011503c80001011d00fc0007423799180053cdf80dce426f430f88190bb8560bb802f100005aa110002887e000010000ee8d');

// Traccar, src/test/java/org/traccar/protocol/WialonProtocolDecoderTest.java (github.com/traccar/traccar):
// the login with a short id, the Wialon IPS 1.1 document's #SD# and #D# samples (270413;205601),
// real terminals' #D# and #B# lines, and three 2.0 #D# lines with their CRC16.
const WIALON_11 = {
  login: '#L#2002;NA',
  loginWithPassword: '#L#123456789012345;test',
  sd: '#SD#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4',
  d: '#D#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4;0.0;0;0;14.77,0.02,3.6;NA;count1:1:564,fuel:2:45.8,hw:3:V4.5',
  dEmptyCourse: '#D#021214;065947;2237.7552;N;11404.8851;E;0.000;;170.9;5;1.74;NA;NA;;NA;NA',
  dCan: '#D#151216;140203;5312.59514;N;04830.37834;E;53;273;NA;10;NA;NA;NA;NA;NA;EvId:1:1,Board:2:12.81,Accum:2:4.28',
  blackBox: '#B#080914;073235;5027.50625;N;03026.19321;E;0.700;0.000;NA;4;NA;NA;NA;;NA;Батарея:3:100 %|080914;073420;5027.50845;N;03026.18854;E;1.996;292.540;NA;4;NA;NA;NA;;NA;Батарея:3:100 %',
  /** Minutes of latitude 64.0167: not a coordinate; refused with code 10 and not counted. */
  blackBoxBadMinutes: '#B#110315;045857;5364.0167;N;06127.8262;E;0;155;965;7;2.40;4;0;;NA;Uacc:2:3.4,Iacc:2:0.000,Uext:2:13.2,Tcpu:2:14.4,Balance:2:167.65,GPS:3:Off',
};
const WIALON_20 = {
  /** Dated NA: stored at the time of arrival. The CRC is written `0x9b0`. */
  dUndated: '#D#NA;NA;5429.681944502211763;N;02654.60403650999069;E;NA;NA;NA;NA;NA;NA;NA;1.0;NA;m1:1:9196679,d1:1:15397,t1:1:20,b1:1:162,fuel1:2:21588.0,pv1:2:35.98,finish:1:1;0x9b0',
  /** No coordinates: accepted, no position stored. */
  dNoPosition: '#D#120319;112003;NA;NA;NA;NA;0.000;NA;NA;0;NA;NA;NA;NA;NA;101_521347:1:521246,101_158:1:510,101_521055:1:510,101_521055_2.9:1:509,101_521056:1:3;626B',
  d: '#D#101118;061143;0756.0930;N;12338.6403;E;18.223;99.766;-4.000;10;0.800;NA;NA;NA;NA;101_521347:1:521249,101_521126:1:6593598,101_521127:1:774780,101_521072_21.1:1:0,101_521072_21.2:1:71353;F24A',
};

const NOW = Date.parse('2024-05-20T11:00:00Z');
const near = (actual: number, expected: number, label: string) => assert.ok(Math.abs(actual - expected) < 1e-6, `${label}: ${actual} != ${expected}`);

for (const dialect of dialects) {
  describe(`published frames into the store on ${dialect}`, () => {
    let server: TestServer;
    let wialon: TrackerServer;
    let teltonika: TrackerServer;
    const clients: TrackerClient[] = [];

    before(async () => {
      // Samples go back to 2013: the account keeps its history for good.
      server = await startServer(dialect, { now: NOW });
      const sink = serviceTrackerSink(server.services);
      wialon = await startTrackerServer({ protocol: wialonIpsProtocol, sink, host: '127.0.0.1', clock: () => NOW });
      teltonika = await startTrackerServer({ protocol: teltonikaProtocol, sink, host: '127.0.0.1', clock: () => NOW });
    });
    after(async () => {
      for (const client of clients) client.close();
      await wialon?.close();
      await teltonika?.close();
      await server?.close();
    });

    async function connect(port: number) {
      const client = await TrackerClient.connect(port);
      clients.push(client);
      return client;
    }

    async function vehicle(deviceKey: string, deviceProtocol: string): Promise<number> {
      const response = await server.api.post(SUBSCRIBERS, { name: deviceKey, deviceKey, deviceProtocol });
      assert.equal(response.status, 201, response.text);
      return response.body.subscriberID;
    }

    /** What the store kept of the employee's fixes, oldest first. */
    async function stored(subscriberID: number) {
      const rows = await server.database.db
        .selectFrom('locations')
        .select(['location_date', 'is_valid', 'latitude', 'longitude', 'velocity', 'angle', 'fuel_level', 'ignition', 'external_power', 'odometer', 'sensors'])
        .where('account_id', '=', server.account.id)
        .where('subscriber_id', '=', subscriberID)
        .orderBy('location_date')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ ...r, location_date: new Date(Number(r.location_date)).toISOString(), sensors: r.sensors === null ? null : JSON.parse(r.sensors) }));
    }

    it("Teltonika: the wiki's Codec 8 and 8 Extended examples and Traccar's FMB record, acknowledged with their counts and stored", async () => {
      const imei = dialect === 'sqlite' ? '356307042441013' : '356307042442013';
      const id = await vehicle(imei, 'teltonika');
      const client = await connect(teltonika.port);
      await client.send(hex(`000F${Buffer.from(imei).toString('hex')}`));
      assert.deepEqual(await client.readBytes(1), Buffer.from([1]));
      for (const [frame, count] of [[WIKI_CODEC8_1, 1], [WIKI_CODEC8_TWO, 2], [WIKI_CODEC8E, 1], [TRACCAR_FMB, 1]] as const) {
        await client.send(frame);
        assert.deepEqual(await client.readBytes(4), Buffer.from([0, 0, 0, count]));
      }
      const rows = await stored(id);
      const noFix = { is_valid: 0, latitude: 0, longitude: 0, velocity: 0, angle: 0, fuel_level: null, ignition: null, odometer: null };
      assert.deepEqual(rows.find((r) => r.location_date === '2019-06-10T10:04:46.000Z'), {
        ...noFix, location_date: '2019-06-10T10:04:46.000Z', external_power: 1, sensors: [{ sensorID: 11, value: 1 }], // IO 66 = 24.079 V; IO 1 = DIN1
      });
      assert.deepEqual(rows.filter((r) => r.location_date.startsWith('2019-06-10T10:0') && r.location_date !== '2019-06-10T10:04:46.000Z').map((r) => [r.location_date, r.sensors]), [
        [new Date(0x16b40d57b48).toISOString(), [{ sensorID: 11, value: 0 }]],
        [new Date(0x16b40d5c198).toISOString(), [{ sensorID: 11, value: 1 }]],
      ]);
      const extended = rows.find((r) => r.location_date === new Date(0x16b412cee00).toISOString());
      assert.deepEqual([extended?.odometer, extended?.sensors], [0x15e2c88 / 1000, [{ sensorID: 11, value: 1 }]]);
      const fmb = rows.find((r) => r.is_valid === 1)!;
      assert.equal(fmb.location_date, new Date(0x16818d50058).toISOString());
      near(fmb.latitude, 0x1cb3757a / 1e7, 'latitude');
      near(fmb.longitude, 0x09c28d9f / 1e7, 'longitude');
      assert.deepEqual([fmb.velocity, fmb.angle, fmb.external_power, fmb.odometer, fmb.sensors], [0x53, 0xc6, 1, 0x2887e0 / 1000, [{ sensorID: 11, value: 1 }]]);
      assert.equal(rows.length, 5);
    });

    it('Wialon IPS 1.1: #L#2002;NA, the document\'s #SD# and #D#, real terminals\' #D# and #B#, each answered and stored', async () => {
      const id = await vehicle('2002', 'wialonIps');
      // The document's #D# sample has the #SD# sample's time: it goes to a second terminal (one
      // vehicle keeps one fix per instant), which logs in with a password its employee does not ask for.
      const second = await vehicle('123456789012345', 'wialonIps');
      const other = await connect(wialon.port);
      await other.send(`${WIALON_11.loginWithPassword}\r\n${WIALON_11.d}\r\n`);
      assert.equal(await other.readLine(), '#AL#1\r\n');
      assert.equal(await other.readLine(), '#AD#1\r\n');
      const client = await connect(wialon.port);
      const say = async (line: string) => {
        await client.send(`${line}\r\n`);
        return (await client.readLine()).trimEnd();
      };
      assert.equal(await say(WIALON_11.login), '#AL#1');
      assert.equal(await say(WIALON_11.sd), '#ASD#1');
      assert.equal(await say(WIALON_11.dEmptyCourse), '#AD#1');
      assert.equal(await say(WIALON_11.dCan), '#AD#1');
      assert.equal(await say(WIALON_11.blackBox), '#AB#2');
      assert.equal(await say(WIALON_11.blackBoxBadMinutes), '#AB#0');
      assert.equal(await say('#P#'), '#AP#');
      const rows = await stored(id);
      assert.deepEqual(rows.map((r) => r.location_date), [
        '2013-04-27T20:56:01.000Z', '2014-09-08T07:32:35.000Z', '2014-09-08T07:34:20.000Z', '2014-12-02T06:59:47.000Z', '2016-12-15T14:02:03.000Z',
      ]);
      // The document's samples: 55°44.6025' N, 37°39.6834' E, speed 1, course 2; the #D# one with ADC 14.77, 0.02, 3.6 and fuel 45.8.
      const [sd] = rows;
      const [d] = await stored(second);
      for (const row of [sd!, d!]) {
        near(row.latitude, 55 + 44.6025 / 60, 'latitude');
        near(row.longitude, 37 + 39.6834 / 60, 'longitude');
        assert.deepEqual([row.velocity, row.angle, row.is_valid], [1, 2, 1]);
      }
      assert.deepEqual([sd!.fuel_level, sd!.sensors], [null, null]);
      assert.equal(d!.fuel_level, 45.8);
      assert.deepEqual(d!.sensors!.filter((s: { sensorID: number }) => s.sensorID <= 3), [{ sensorID: 1, value: 14.77 }, { sensorID: 2, value: 0.02 }, { sensorID: 3, value: 3.6 }]);
      const boxed = rows[2]!;
      near(boxed.latitude, 50 + 27.50845 / 60, 'black box latitude');
      assert.deepEqual([boxed.velocity, boxed.angle], [1.996, 293], 'a course of 292.540 is stored in whole degrees');
      assert.deepEqual([rows[3]!.angle, rows[3]!.velocity], [0, 0], 'an empty course reads 0');
    });

    it('Wialon IPS 2.0: three published #D# lines with their CRC16, one undated and one without a position', async () => {
      const id = await vehicle('42001300083', 'wialonIps');
      const client = await connect(wialon.port);
      const say = async (line: string) => {
        await client.send(line.endsWith('\r\n') ? line : `${line}\r\n`);
        return (await client.readLine()).trimEnd();
      };
      // Traccar's 2.0 login `#L#2.0;42001300083;;CE45` carries a checksum the rule does not give
      // (answered #AL#10); the same login with the checksum the data lines confirm is accepted.
      assert.equal(await say('#L#2.0;42001300083;;CE45'), '#AL#10');
      assert.equal(await say(wialonLogin('42001300083', '', '2.0')), '#AL#1');
      assert.equal(await say(WIALON_20.dUndated), '#AD#1');
      assert.equal(await say(WIALON_20.dNoPosition), '#AD#1');
      assert.equal(await say(WIALON_20.d), '#AD#1');
      const rows = await stored(id);
      assert.equal(rows.length, 2, 'the line without coordinates stores no position');
      const [dated, undated] = rows;
      assert.equal(dated!.location_date, '2018-11-10T06:11:43.000Z');
      near(dated!.latitude, 7 + 56.093 / 60, 'latitude');
      near(dated!.longitude, 123 + 38.6403 / 60, 'longitude');
      assert.deepEqual([dated!.velocity, dated!.angle], [18.223, 100]);
      assert.equal(undated!.location_date, new Date(NOW).toISOString());
      near(undated!.latitude, 54 + 29.681944502211763 / 60, 'latitude');
      assert.deepEqual(undated!.sensors, [{ sensorID: 1, value: 1 }], 'ADC 1.0');
    });
  });
}
