import type { ReadingMap } from '../reading-map.js';

/**
 * Wialon IPS's default reading map. The protocol leaves parameter names to the tracker; these are
 * the names Wialon's own device profiles and most firmwares use. Readings are named after the
 * parameter exactly as sent (case matters), plus `in1`…`in32` and `out1`…`out32` from the inputs
 * and outputs bit masks and `adc1`… from the ADC list.
 * - fuel: `fuel` (litres); ignition: `ign`; external power: `pwr_ext` (volts) above 6 V;
 * - odometer: `odometer` (km); engine hours: `engine_hours` (hours);
 * - sensors 1–8: `adc1`…`adc8` as sent; sensors 11–18: digital inputs `in1`…`in8`.
 */
export const wialonReadingMap: ReadingMap = {
  fuelLevel: { input: 'fuel' },
  ignition: { input: 'ign' },
  externalPower: { input: 'pwr_ext', above: 6 },
  odometer: { input: 'odometer' },
  engineHours: { input: 'engine_hours' },
  sensors: [
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ sensorID: n, input: `adc${n}` })),
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ sensorID: 10 + n, input: `in${n}` })),
  ],
};
