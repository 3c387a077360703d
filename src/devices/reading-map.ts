/**
 * How a tracker's inputs become Lokator's vehicle readings (CONTRACT §2: fuel in litres, ignition,
 * external power, odometer in km, engine hours, numbered sensors). Each protocol declares its
 * defaults as data (its definition's `defaultReadingMap`); an employee's
 * `vehicleSettings.readingMap` (schema in src/employees/reading-map-schema.ts, of these shapes)
 * replaces any of their targets through `resolveReadingMap`.
 */

/** A number: the input times `scale` (default 1). */
export interface ScaledInput {
  input: string;
  scale?: number;
}
/** A switch: true when the input times `scale` is above `above` (default 0). */
export interface SwitchInput extends ScaledInput {
  above?: number;
}
export interface SensorInput extends ScaledInput {
  sensorID: number;
}

export interface ReadingMap {
  /** Litres. */
  fuelLevel: ScaledInput | null;
  ignition: SwitchInput | null;
  externalPower: SwitchInput | null;
  /** Kilometres. */
  odometer: ScaledInput | null;
  /** Hours. */
  engineHours: ScaledInput | null;
  sensors: SensorInput[];
}

/** An employee's map: each target given replaces the default's; null switches it off. */
export type ReadingMapOverride = Partial<ReadingMap>;

/** A fix's vehicle readings (the fields of positioning's Fix of the same names); null: not known. */
export interface VehicleReadings {
  fuelLevel: number | null;
  ignition: boolean | null;
  externalPower: boolean | null;
  odometer: number | null;
  engineHours: number | null;
  sensors: { sensorID: number; value: number }[] | null;
}

/** The defaults with an employee's override laid over them: each target given replaces the default's (sensors as a whole). */
export function resolveReadingMap(defaults: ReadingMap, override?: ReadingMapOverride | null): ReadingMap {
  if (!override) return defaults;
  const resolved: ReadingMap = { ...defaults };
  for (const key of ['fuelLevel', 'ignition', 'externalPower', 'odometer', 'engineHours'] as const) {
    if (override[key] !== undefined) (resolved[key] as ReadingMap[typeof key]) = override[key];
  }
  if (override.sensors !== undefined) resolved.sensors = override.sensors;
  return resolved;
}

/** Scaling by 0.001 or 0.1 leaves binary noise (12.345000000000001); readings keep 6 decimals. */
const tidy = (value: number) => Math.round(value * 1e6) / 1e6;

function scaled(readings: Record<string, number>, source: ScaledInput | null): number | null {
  if (!source) return null;
  const value = readings[source.input];
  return value === undefined || !Number.isFinite(value) ? null : tidy(value * (source.scale ?? 1));
}

function switched(readings: Record<string, number>, source: SwitchInput | null): boolean | null {
  const value = scaled(readings, source);
  return value === null ? null : value > (source?.above ?? 0);
}

/** The vehicle readings of one record; a target whose input the record lacks is null (unknown, not zero). */
export function applyReadingMap(readings: Record<string, number>, map: ReadingMap): VehicleReadings {
  let sensors: { sensorID: number; value: number }[] | null = null;
  for (const sensor of map.sensors) {
    const value = scaled(readings, sensor);
    if (value !== null) (sensors ??= []).push({ sensorID: sensor.sensorID, value });
  }
  return {
    fuelLevel: scaled(readings, map.fuelLevel),
    ignition: switched(readings, map.ignition),
    externalPower: switched(readings, map.externalPower),
    odometer: scaled(readings, map.odometer),
    engineHours: scaled(readings, map.engineHours),
    sensors,
  };
}
