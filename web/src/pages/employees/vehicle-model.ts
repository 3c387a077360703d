import type { ReadingMapOverride, VehicleSettings } from '../../types';
import type { PlainKey } from '../../i18n/i18n';

/**
 * The vehicle settings of CONTRACT §2 as the form holds them (text, as typed), and back. A number
 * left empty is not sent, so the server's default (or the stored value) stays.
 */

export type ReadingKey = 'fuelLevel' | 'ignition' | 'externalPower' | 'odometer' | 'engineHours';

/** `default`: the protocol's own map; `off`: the reading is not taken; `input`: from the named input. */
export interface ReadingDraft {
  mode: 'default' | 'off' | 'input';
  input: string;
  scale: string;
  /** Switches only (ignition, external power): on above this. */
  above: string;
}

export interface VehicleDraft {
  speedLimit: string;
  prolongedSpeedSeconds: string;
  fuelFillThreshold: string;
  fuelDrainThreshold: string;
  initialOdometer: string;
  sensorLimits: { sensorID: string; min: string; max: string }[];
  readings: Record<ReadingKey, ReadingDraft>;
  /** Sensors read from inputs; none listed keeps the protocol's sensors. */
  sensorInputs: { sensorID: string; input: string; scale: string }[];
}

export const READINGS: { key: ReadingKey; label: PlainKey; switch: boolean }[] = [
  { key: 'fuelLevel', label: 'veh.fuelLevel', switch: false },
  { key: 'ignition', label: 'veh.ignition', switch: true },
  { key: 'externalPower', label: 'veh.externalPower', switch: true },
  { key: 'odometer', label: 'veh.odometerReading', switch: false },
  { key: 'engineHours', label: 'veh.engineHours', switch: false },
];

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

export function vehicleDraft(settings: VehicleSettings | null): VehicleDraft {
  const map = settings?.readingMap ?? {};
  const reading = (key: ReadingKey): ReadingDraft => {
    const entry = map[key];
    if (entry === undefined) return { mode: 'default', input: '', scale: '', above: '' };
    if (entry === null) return { mode: 'off', input: '', scale: '', above: '' };
    return { mode: 'input', input: entry.input, scale: text(entry.scale), above: text('above' in entry ? entry.above : undefined) };
  };
  return {
    speedLimit: text(settings?.speedLimit),
    prolongedSpeedSeconds: text(settings?.prolongedSpeedSeconds),
    fuelFillThreshold: text(settings?.fuelFillThreshold),
    fuelDrainThreshold: text(settings?.fuelDrainThreshold),
    initialOdometer: text(settings?.initialOdometer),
    sensorLimits: (settings?.sensorLimits ?? []).map((l) => ({ sensorID: String(l.sensorID), min: text(l.min), max: text(l.max) })),
    readings: Object.fromEntries(READINGS.map(({ key }) => [key, reading(key)])) as Record<ReadingKey, ReadingDraft>,
    sensorInputs: (map.sensors ?? []).map((s) => ({ sensorID: String(s.sensorID), input: s.input, scale: text(s.scale) })),
  };
}

/** A number as typed: empty is undefined; anything else goes as a number (the server checks ranges and says which field). */
const numberOf = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value));
const orNull = (value: string): number | null => (value.trim() === '' ? null : Number(value));

/** The `vehicleSettings` of a POST or PATCH body. */
export function vehicleSettingsOf(draft: VehicleDraft): Record<string, unknown> {
  const readingMap: ReadingMapOverride = {};
  for (const { key, switch: isSwitch } of READINGS) {
    const r = draft.readings[key];
    if (r.mode === 'off') readingMap[key] = null;
    if (r.mode !== 'input') continue;
    const entry: Record<string, unknown> = { input: r.input.trim() };
    if (numberOf(r.scale) !== undefined) entry.scale = numberOf(r.scale);
    if (isSwitch && numberOf(r.above) !== undefined) entry.above = numberOf(r.above);
    (readingMap as Record<string, unknown>)[key] = entry;
  }
  if (draft.sensorInputs.length > 0) {
    readingMap.sensors = draft.sensorInputs.map((s) => ({ sensorID: Number(s.sensorID), input: s.input.trim(), ...(numberOf(s.scale) !== undefined ? { scale: numberOf(s.scale) } : {}) }));
  }
  const settings: Record<string, unknown> = {
    speedLimit: numberOf(draft.speedLimit),
    prolongedSpeedSeconds: numberOf(draft.prolongedSpeedSeconds),
    fuelFillThreshold: numberOf(draft.fuelFillThreshold),
    fuelDrainThreshold: numberOf(draft.fuelDrainThreshold),
    initialOdometer: numberOf(draft.initialOdometer),
    sensorLimits: draft.sensorLimits.map((l) => ({ sensorID: Number(l.sensorID), min: orNull(l.min), max: orNull(l.max) })),
    // No override at all is null: the protocol's defaults, and a stored override goes.
    readingMap: Object.keys(readingMap).length > 0 ? readingMap : null,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}
