import type { ReadingMap } from '../reading-map.js';

const oneToEight = [1, 2, 3, 4, 5, 6, 7, 8];

/**
 * EGTS's default reading map (reading names in egts-teledata.ts):
 * - fuel: liquid level sensor 1 in litres (`lls1`, LLSN as the terminal numbers it);
 * - ignition: digital input 1 of POS_DATA (`in1`), the input terminals wire ignition to by default;
 * - external power: STATE_DATA main supply voltage (`mpsv`) above 6 V;
 * - odometer: POS_DATA's odometer (km); engine hours: none (EGTS has no such field);
 * - sensors 1–8: analog inputs `adc1`…`adc8` (as sent); 11–18: digital inputs `in1`…`in8`;
 *   21–28: counting inputs `cnt1`…`cnt8`.
 */
export const egtsReadingMap: ReadingMap = {
  fuelLevel: { input: 'lls1' },
  ignition: { input: 'in1' },
  externalPower: { input: 'mpsv', above: 6 },
  odometer: { input: 'odometer' },
  engineHours: null,
  sensors: [
    ...oneToEight.map((n) => ({ sensorID: n, input: `adc${n}` })),
    ...oneToEight.map((n) => ({ sensorID: 10 + n, input: `in${n}` })),
    ...oneToEight.map((n) => ({ sensorID: 20 + n, input: `cnt${n}` })),
  ],
};
