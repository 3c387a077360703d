import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEgtsRecords } from '../../src/devices/egts/egts-records.js';
import { egtsReadingMap } from '../../src/devices/egts/egts-reading-map.js';
import { decodeTeledata } from '../../src/devices/egts/egts-teledata.js';
import { applyReadingMap, resolveReadingMap } from '../../src/devices/reading-map.js';
import { decodeTeltonikaPacket } from '../../src/devices/teltonika/teltonika-codec.js';
import { teltonikaReadingMap } from '../../src/devices/teltonika/teltonika-reading-map.js';
import { parseWialonRecord } from '../../src/devices/wialon-ips/wialon-message.js';
import { wialonReadingMap } from '../../src/devices/wialon-ips/wialon-reading-map.js';
import { adSensorsData, countersData, egtsRecord, liquidLevel, posData, stateData } from '../../scripts/trackers/egts-encoder.js';
import { teltonikaPacket, wialonRecord } from '../../scripts/trackers/tracker-encoders.js';

const TIME = Date.parse('2024-05-20T10:00:00Z');
const at = { timeMs: TIME, latitude: 55.75, longitude: 37.61, satellites: 9 };

function teltonikaReadings(io: Record<number, [1 | 2 | 4 | 8, number]>) {
  return decodeTeltonikaPacket(teltonikaPacket([{ ...at, io }], 0x8e)).records[0]!.readings;
}

describe('default reading maps', () => {
  it('Teltonika: LLS fuel, ignition, external voltage, odometer, ignition-on counter, analog and digital inputs', () => {
    const readings = teltonikaReadings({ 201: [2, 57], 239: [1, 1], 66: [2, 12_600], 16: [4, 123_456_789], 449: [4, 9000], 9: [2, 4500], 6: [2, 120], 1: [1, 1], 2: [1, 0], 3: [1, 1], 240: [1, 1] });
    assert.deepEqual(applyReadingMap(readings, teltonikaReadingMap), {
      fuelLevel: 57,
      ignition: true,
      externalPower: true,
      odometer: 123_456.789,
      engineHours: 2.5,
      sensors: [
        { sensorID: 1, value: 4.5 },
        { sensorID: 2, value: 0.12 },
        { sensorID: 11, value: 1 },
        { sensorID: 12, value: 0 },
        { sensorID: 13, value: 1 },
      ],
    });
    const cut = applyReadingMap(teltonikaReadings({ 239: [1, 0], 66: [2, 400] }), teltonikaReadingMap);
    assert.deepEqual([cut.ignition, cut.externalPower, cut.fuelLevel, cut.sensors], [false, false, null, null]);
  });

  it('Wialon IPS: fuel, ign, pwr_ext, odometer, engine_hours, ADC and inputs', () => {
    const text = wialonRecord({
      ...at,
      sats: 9,
      inputs: 0b011,
      adc: [12.5, 0.7],
      params: { fuel: [2, 40.5], ign: [1, 1], pwr_ext: [2, 5.2], odometer: [2, 1500.25], engine_hours: [2, 310.5], other: [3, 'text'] },
    });
    const parsed = parseWialonRecord(text, 'D', TIME);
    assert.ok('record' in parsed && parsed.record);
    assert.deepEqual(applyReadingMap(parsed.record.readings, wialonReadingMap), {
      fuelLevel: 40.5,
      ignition: true,
      externalPower: false,
      odometer: 1500.25,
      engineHours: 310.5,
      sensors: [
        { sensorID: 1, value: 12.5 },
        { sensorID: 2, value: 0.7 },
        ...[1, 1, 0, 0, 0, 0, 0, 0].map((value, i) => ({ sensorID: 11 + i, value })),
      ],
    });
  });

  it('EGTS: liquid level in litres, digital input 1, main supply, odometer, analog, digital and counting inputs', () => {
    const record = egtsRecord({
      number: 1,
      serviceType: 2,
      subrecords: [
        posData({ timeMs: TIME, latitude: 55.75, longitude: 37.61, odometerKm: 8_001.3, inputs: 0b1 }),
        adSensorsData({}, 0, { 1: 3300, 2: 12 }),
        countersData({ 1: 17 }),
        stateData(24.3, 4.1, 3.9),
        liquidLevel(1, 2, 1_234),
      ],
    });
    const readings = decodeTeledata(parseEgtsRecords(record)[0]!)[0]!.readings;
    assert.deepEqual(applyReadingMap(readings, egtsReadingMap), {
      fuelLevel: 123.4,
      ignition: true,
      externalPower: true,
      odometer: 8_001.3,
      engineHours: null,
      sensors: [
        { sensorID: 1, value: 3300 },
        { sensorID: 2, value: 12 },
        ...[1, 0, 0, 0, 0, 0, 0, 0].map((value, i) => ({ sensorID: 11 + i, value })),
        { sensorID: 21, value: 17 },
      ],
    });
  });
});

describe('reading map overrides', () => {
  it('replace the targets they name, switch targets off with null and replace the sensor list whole', () => {
    const map = resolveReadingMap(teltonikaReadingMap, {
      fuelLevel: { input: 'io84', scale: 0.1 },
      ignition: null,
      externalPower: { input: 'io66', scale: 0.001, above: 11.5 },
      sensors: [{ sensorID: 5, input: 'io72', scale: 0.1 }],
    });
    assert.deepEqual(map.odometer, teltonikaReadingMap.odometer);
    const readings = teltonikaReadings({ 84: [2, 455], 239: [1, 1], 66: [2, 11_000], 72: [4, 215], 9: [2, 100] });
    assert.deepEqual(applyReadingMap(readings, map), {
      fuelLevel: 45.5,
      ignition: null,
      externalPower: false,
      odometer: null,
      engineHours: null,
      sensors: [{ sensorID: 5, value: 21.5 }],
    });
  });

  it('leave the defaults alone when absent', () => {
    assert.equal(resolveReadingMap(wialonReadingMap, null), wialonReadingMap);
    assert.deepEqual(resolveReadingMap(wialonReadingMap, {}), wialonReadingMap);
  });
});
