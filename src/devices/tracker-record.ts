/**
 * One position a tracker reported, decoded but not yet tied to an employee. `readings` holds the
 * tracker's inputs under the protocol's own names (`io239`, `fuel`, `in1`, …); a reading map
 * (reading-map.ts) turns them into Lokator's vehicle readings.
 */
export interface TrackerRecord {
  timeMs: number;
  isValid: boolean;
  latitude: number;
  longitude: number;
  /** Degrees from north, clockwise. */
  angle: number;
  speedKmh: number;
  readings: Record<string, number>;
  /** From a retranslator: the device key of the vehicle it belongs to (absent from a terminal, which is its own vehicle). */
  deviceKey?: string;
}
