import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkedWialonBody, parseWialonLine, parseWialonLogin, parseWialonRecord, wialonFrameLength } from '../../../src/devices/wialon-ips/wialon-message.js';
import { wialonLine, wialonLogin, wialonRecord } from '../../../scripts/trackers/tracker-encoders.js';

const NOW = Date.parse('2024-05-20T12:00:00Z');
const body = (line: string) => parseWialonLine(line.replace(/\r\n$/, ''))!.body;
const close = (actual: number, expected: number, label: string) => assert.ok(Math.abs(actual - expected) < 1e-9, `${label}: ${actual} != ${expected}`);

describe('Wialon IPS messages', () => {
  it('frames lines ending in \\n and splits the packet type from the body', () => {
    assert.equal(wialonFrameLength(Buffer.from('#P#\r\n#L#')), 5);
    assert.equal(wialonFrameLength(Buffer.from('#L#12345;NA')), 0);
    assert.deepEqual(parseWialonLine('#SD#NA;NA'), { type: 'SD', body: 'NA;NA' });
    assert.equal(parseWialonLine('$GPRMC,...'), null);
  });

  it('reads the 1.1 and 2.0 logins and checks the 2.0 checksum', () => {
    assert.deepEqual(parseWialonLogin('123456789012345;test'), { version: '1.1', imei: '123456789012345', password: 'test' });
    // Traccar's sample `2.0;42001300083;;CE45` carries a checksum no reading of the rule gives
    // (Traccar never checks it); the rule the data samples confirm gives DBEB.
    assert.deepEqual(parseWialonLogin('2.0;42001300083;;DBEB'), { version: '2.0', imei: '42001300083', password: '' });
    assert.equal(parseWialonLogin('2.0;42001300083;;CE45'), 'crc');
    assert.equal(parseWialonLogin('only-one-field'), null);
    // A terminal's login quoted in a public decoder's comments writes its checksum with `0X`.
    assert.deepEqual(parseWialonLogin('2.0;867730051235566;NA;0XD7C7'), { version: '2.0', imei: '867730051235566', password: 'NA' });
    assert.deepEqual(parseWialonLogin(body(wialonLogin('860000000000001', 'secret', '2.0'))), { version: '2.0', imei: '860000000000001', password: 'secret' });
  });

  it('checks the CRC16 of 2.0 records from Traccar\'s tests and strips it', () => {
    assert.equal(checkedWialonBody('300924;154245;5554.350052;N;3644.670410;E;2.92;NA;NA;NA;7A01', ';'), '300924;154245;5554.350052;N;3644.670410;E;2.92;NA;NA;NA');
    assert.equal(checkedWialonBody('300924;154245;5554.350052;N;3644.670410;E;2.92;NA;NA;NA;7A02', ';'), null);
    assert.notEqual(checkedWialonBody('220323;114150;2234.80479;N;11354.87786;E;0;NA;59;11;NA;NA;NA;;NA;d_battr:1:94,d_csq:1:21,di_light:1:1;E7C9', ';'), null);
    assert.equal(checkedWialonBody(body(wialonLine('B', 'a|b', '2.0', '|')), '|'), 'a|b');
  });

  it('decodes the specification\'s short data sample (Traccar: 2013-04-27 20:56:01, 55.74338, 37.66139)', () => {
    const parsed = parseWialonRecord('270413;205601;5544.6025;N;03739.6834;E;1;2;3;4', 'SD', NOW);
    assert.ok('record' in parsed && parsed.record);
    const { record } = parsed;
    assert.equal(record.timeMs, Date.parse('2013-04-27T20:56:01Z'));
    close(record.latitude, 55 + 44.6025 / 60, 'latitude');
    close(record.longitude, 37 + 39.6834 / 60, 'longitude');
    assert.deepEqual([record.speedKmh, record.angle, record.isValid, record.readings], [1, 2, true, { sats: 4 }]);
  });

  it('decodes an extended record: inputs, outputs, ADC and every parameter type', () => {
    const parsed = parseWialonRecord('270413;205601;5544.6025;S;03739.6834;W;60;90;150;12;0.9;5;2;14.77,0.02,3.6;NA;count1:1:564,fuel:2:45.8,hw:3:V4.5,ign:3:true,pwr_ext:3:12.5', 'D', NOW);
    assert.ok('record' in parsed && parsed.record);
    const { readings, latitude, longitude } = parsed.record;
    assert.ok(latitude < 0 && longitude < 0);
    assert.equal(readings.in1, 1);
    assert.equal(readings.in2, 0);
    assert.equal(readings.in3, 1);
    assert.equal(readings.out2, 1);
    assert.deepEqual([readings.adc1, readings.adc2, readings.adc3], [14.77, 0.02, 3.6]);
    assert.deepEqual([readings.count1, readings.fuel, readings.ign, readings.pwr_ext, readings.hw], [564, 45.8, 1, 12.5, undefined]);
  });

  it('accepts NA everywhere: the time of arrival, and no position to store', () => {
    assert.deepEqual(parseWialonRecord('NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;;NA;SOS:1:0', 'D', NOW), { record: null });
    const parsed = parseWialonRecord('NA;NA;5544.6025;N;03739.6834;E;NA;NA;NA;NA', 'SD', NOW);
    assert.ok('record' in parsed && parsed.record?.timeMs === NOW);
  });

  it('answers each broken field with the specification\'s code', () => {
    const error = (text: string, kind: 'SD' | 'D' = 'D') => {
      const parsed = parseWialonRecord(text, kind, NOW);
      return 'error' in parsed ? parsed.error : 'accepted';
    };
    const good = '270413;205601;5544.6025;N;03739.6834;E;1;2;3;4;0.9;5;2;1.5;NA;fuel:2:45.8'.split(';');
    const withField = (index: number, value: string) => good.map((f, i) => (i === index ? value : f)).join(';');
    assert.equal(error(good.join(';')), 'accepted');
    assert.equal(error('1;2;3'), -1);
    assert.equal(error(good.slice(0, 10).join(';')), -1); // an SD body where a D is announced
    assert.equal(error(withField(0, '320413')), 0);
    assert.equal(error(withField(2, '55x4.6')), 10);
    assert.equal(error(withField(3, 'Q')), 10);
    assert.equal(error(withField(6, 'fast')), 11);
    assert.equal(error(withField(9, 'many')), 12);
    assert.equal(error(withField(11, '1.5')), 13);
    assert.equal(error(withField(13, '1,x')), 14);
    assert.equal(error(withField(15, 'fuel=45')), 15);
  });

  it('reads back what the encoder writes from a fix', () => {
    const timeMs = Date.parse('2024-05-20T10:11:12Z');
    const text = wialonRecord({ timeMs, latitude: -12.3456789, longitude: 123.456789, speedKmh: 42, course: 180, height: 10, sats: 8, inputs: 1, adc: [12.1], params: { fuel: [2, 33.5] } });
    const parsed = parseWialonRecord(text, 'D', NOW);
    assert.ok('record' in parsed && parsed.record);
    close(parsed.record.latitude, -12.3456789, 'latitude');
    close(parsed.record.longitude, 123.456789, 'longitude');
    assert.deepEqual([parsed.record.timeMs, parsed.record.speedKmh, parsed.record.angle], [timeMs, 42, 180]);
  });
});
