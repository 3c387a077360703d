import type { ReadingMap } from '../reading-map.js';

/**
 * Teltonika's default reading map, from the FMB AVL ID table of the Teltonika wiki. Readings are
 * named `io<AVL ID>`, with the raw value the tracker sent.
 * - fuel: 201 "LLS 1 Fuel Level" (litres when the sensor is calibrated in litres; CAN trackers
 *   report 84 "Fuel Level" in 0.1 l instead: override with `{ input: 'io84', scale: 0.1 }`);
 * - ignition: 239 "Ignition" (0/1);
 * - external power: 66 "External Voltage" in mV, on above 6 V (a vehicle battery disconnected reads ~0);
 * - odometer: 16 "Total Odometer" in metres;
 * - engine hours: 449 "Ignition On Counter" in seconds;
 * - sensors 1, 2: 9 and 6, analog inputs 1 and 2 in volts; sensors 11–13: 1, 2, 3, digital inputs 1–3.
 */
export const teltonikaReadingMap: ReadingMap = {
  fuelLevel: { input: 'io201' },
  ignition: { input: 'io239' },
  externalPower: { input: 'io66', scale: 0.001, above: 6 },
  odometer: { input: 'io16', scale: 0.001 },
  engineHours: { input: 'io449', scale: 1 / 3600 },
  sensors: [
    { sensorID: 1, input: 'io9', scale: 0.001 },
    { sensorID: 2, input: 'io6', scale: 0.001 },
    { sensorID: 11, input: 'io1' },
    { sensorID: 12, input: 'io2' },
    { sensorID: 13, input: 'io3' },
  ],
};
