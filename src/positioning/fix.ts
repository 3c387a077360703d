/** A fix as the positioning module handles it: validated, its time resolved to UTC milliseconds. */
export interface Fix {
  subscriberId: number;
  locationDateMs: number;
  isValid: boolean;
  latitude: number;
  longitude: number;
  angle: number;
  velocityKmh: number;
  fuelLevel: number | null;
  ignition: boolean | null;
  externalPower: boolean | null;
  odometer: number | null;
  engineHours: number | null;
  sensors: { sensorID: number; value: number }[] | null;
  /** The receiver's estimate of its error in metres, where the device sends one (OsmAnd `accuracy`). */
  accuracyM?: number | null;
}
