import { Type, type Static } from 'typebox';

/**
 * The schema of `vehicleSettings.readingMap`: how a native tracker's inputs become the vehicle
 * readings (src/devices/reading-map.ts applies it over each protocol's default map). It lives
 * here, with the settings it belongs to, because employees sit below devices in the layers.
 */

const InputName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.\\-]+$', description: "the protocol's name of the input, e.g. io239, fuel, in1" });
const Scale = Type.Number({ minimum: -1e9, maximum: 1e9, description: 'the input is multiplied by this (default 1)' });

/** A number: the input times `scale`. */
export const ScaledInput = Type.Object({ input: InputName, scale: Type.Optional(Scale) }, { additionalProperties: false });
/** A switch: true when the input times `scale` is above `above` (default 0). */
export const SwitchInput = Type.Object(
  { input: InputName, scale: Type.Optional(Scale), above: Type.Optional(Type.Number({ minimum: -1e9, maximum: 1e9 })) },
  { additionalProperties: false },
);
export const SensorInput = Type.Object(
  { sensorID: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), input: InputName, scale: Type.Optional(Scale) },
  { additionalProperties: false },
);

const orNull = <T extends typeof ScaledInput | typeof SwitchInput>(schema: T) => Type.Union([schema, Type.Null()]);

/** Every target of a map; null switches a target off. Also the shape an override is validated against. */
export const ReadingMapOverride = Type.Object(
  {
    fuelLevel: Type.Optional(orNull(ScaledInput)),
    ignition: Type.Optional(orNull(SwitchInput)),
    externalPower: Type.Optional(orNull(SwitchInput)),
    odometer: Type.Optional(orNull(ScaledInput)),
    engineHours: Type.Optional(orNull(ScaledInput)),
    sensors: Type.Optional(Type.Array(SensorInput, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type ReadingMapOverride = Static<typeof ReadingMapOverride>;
export type ScaledInput = Static<typeof ScaledInput>;
export type SwitchInput = Static<typeof SwitchInput>;
export type SensorInput = Static<typeof SensorInput>;
