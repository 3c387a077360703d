import { Type, type Static, type TLiteral, type TSchema, type TUnion } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Id, Offset } from '../http/list-params.js';
import { deviceProtocolNames, type DeviceProtocol } from '../devices/protocols.js';
import { ReadingMapOverride } from './reading-map-schema.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number) => Type.String({ maxLength });

/** The protocols of src/devices/protocols.ts, by name (typed as one literal of their union: the list is known only as a list). */
const DeviceProtocolSchema = Type.Union(deviceProtocolNames.map((name) => Type.Literal(name))) as unknown as TUnion<[TLiteral<DeviceProtocol>]>;

/** What an employee is: a person (with a phone) or a vehicle (with a tracker, a plate and a model). */
const EmployeeKind = Type.Union([Type.Literal('person'), Type.Literal('vehicle')], { description: 'person (the default) or vehicle' });
/** What reports for the employee: a phone with a tracking app, or a tracker; null: no device yet. */
const DeviceType = Type.Union([Type.Literal('phone'), Type.Literal('tracker')], {
  description: 'phone (a tracking app) or tracker; omitted: a tracker when deviceProtocol names one other than osmand, else a phone',
});

/** Custom-field types of interface 2.8, matched case-insensitively (samples write `String`, `Date`). */
export const customFieldTypes = ['string', 'text', 'date', 'time', 'integer', 'double', 'boolean', 'select', 'picture', 'file'];

export const CustomFieldItem = Type.Object(
  {
    externalID: text(200),
    name: text(200),
    value: Type.Optional(nullable(text(10_000))),
    values: Type.Optional(Type.Array(text(1000), { maxItems: 100 })),
    type: text(20),
  },
  { additionalProperties: false },
);

export const SensorLimit = Type.Object(
  {
    sensorID: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    min: Type.Optional(nullable(Type.Number({ minimum: -1e9, maximum: 1e9 }))),
    max: Type.Optional(nullable(Type.Number({ minimum: -1e9, maximum: 1e9 }))),
  },
  { additionalProperties: false },
);

/** Vehicle settings of CONTRACT §2 (an extension of the employee). Omitted fields take the defaults below. */
export const VehicleSettingsInput = Type.Object(
  {
    speedLimit: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'km/h' })),
    prolongedSpeedSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
    fuelFillThreshold: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'litres' })),
    fuelDrainThreshold: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'litres' })),
    sensorLimits: Type.Optional(Type.Array(SensorLimit, { maxItems: 200 })),
    initialOdometer: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'km' })),
    readingMap: Type.Optional(nullable(ReadingMapOverride)),
  },
  { additionalProperties: false },
);

export const VehicleSettings = Type.Object({
  speedLimit: Type.Number(),
  prolongedSpeedSeconds: Type.Integer(),
  fuelFillThreshold: Type.Number(),
  fuelDrainThreshold: Type.Number(),
  sensorLimits: Type.Array(Type.Object({ sensorID: Type.Integer(), min: nullable(Type.Number()), max: nullable(Type.Number()) })),
  initialOdometer: Type.Number(),
  /** How a native tracker's inputs become readings, over its protocol's defaults (src/devices); absent or null: the defaults. */
  readingMap: Type.Optional(nullable(ReadingMapOverride)),
});
export type VehicleSettings = Static<typeof VehicleSettings>;

export const defaultVehicleSettings: VehicleSettings = {
  speedLimit: 90,
  prolongedSpeedSeconds: 60,
  fuelFillThreshold: 10,
  fuelDrainThreshold: 10,
  sensorLimits: [],
  initialOdometer: 0,
};

/**
 * The writable fields of an employee (interface 2.9). `isOnline` is the service's to set and is
 * ignored on input. Both spellings of the template id are accepted; the sample's is answered.
 */
const writableFields = {
  regionID: Type.Optional(nullable(Id)),
  isActive: Type.Optional(Type.Boolean()),
  subscriberTariffTypeID: Type.Optional(nullable(Type.Integer({ minimum: 9, maximum: 13, description: '9 M2M … 13 Premium' }))),
  canTrack: Type.Optional(Type.Boolean()),
  canRequest: Type.Optional(Type.Boolean()),
  canSend: Type.Optional(Type.Boolean()),
  isLocateEnabled: Type.Optional(Type.Boolean()),
  isBlockEnabled: Type.Optional(Type.Boolean()),
  phone: Type.Optional(text(50)),
  icon: Type.Optional(text(500)),
  subscriberGroupID: Type.Optional(nullable(Id)),
  externalSubscriberID: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  allowedOvertime: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
  workScheduleID: Type.Optional(nullable(Id)),
  startLocationLatitude: Type.Optional(nullable(Type.Number({ minimum: -90, maximum: 90 }))),
  startLocationLongitude: Type.Optional(nullable(Type.Number({ minimum: -180, maximum: 180 }))),
  customFieldsFormTemplateID: Type.Optional(nullable(Id)),
  customFieldFormTemplateID: Type.Optional(nullable(Id)),
  customFieldFormItems: Type.Optional(Type.Array(CustomFieldItem, { maxItems: 200 })),
  competences: Type.Optional(
    Type.Array(
      Type.Object(
        { competenceID: Id, level: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })), efficiency: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })) },
        { additionalProperties: false },
      ),
      { maxItems: 200 },
    ),
  ),
  zones: Type.Optional(
    Type.Array(Type.Object({ zoneID: Id, bindingType: Type.Union([Type.Literal(0), Type.Literal(1)]) }, { additionalProperties: false }), {
      maxItems: 1000,
    }),
  ),
  mapObjects: Type.Optional(Type.Array(Type.Object({ objectID: Id }, { additionalProperties: false }), { maxItems: 1000 })),
  subscriberTypeID: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }))),
  userBossID: Type.Optional(nullable(Id)),
  vehicleSettings: Type.Optional(VehicleSettingsInput),
  kind: Type.Optional(EmployeeKind),
  vehiclePlate: Type.Optional(text(20)),
  vehicleModel: Type.Optional(text(100)),
  deviceType: Type.Optional(nullable(DeviceType)),
  deviceKey: Type.Optional(
    nullable(
      Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: '^[\\x21-\\x7e]+$',
        description: "the identifier the phone or tracker sends; its form follows deviceProtocol (a phone's: 6 to 128 printable characters)",
      }),
    ),
  ),
  deviceProtocol: Type.Optional(
    nullable(
      Type.Union([...DeviceProtocolSchema.anyOf], { description: 'the listener that hears deviceKey; null (the default): every listener, as for a phone on the OsmAnd port' }),
    ),
  ),
  devicePassword: Type.Optional(
    nullable(
      Type.String({
        minLength: 1,
        maxLength: 32,
        description: "write-only: the password the terminal's login must carry (Wialon IPS, EGTS); null removes it; never answered (hasDevicePassword)",
      }),
    ),
  ),
};

const name = Type.String({ minLength: 1, maxLength: 200 });

const employeeFields = {
  name: 'Olga Smirnova',
  phone: '+79161234567',
  subscriberTariffTypeID: 11,
  canTrack: true,
  canRequest: true,
  subscriberGroupID: 2,
  externalSubscriberID: 'EMP-0042',
  startLocationLatitude: 55.7892,
  startLocationLongitude: 37.6805,
  customFieldsFormTemplateID: 7,
  customFieldFormItems: [{ externalID: 'licence', name: 'Driving licence', value: 'B, C', type: 'string' }],
  competences: [{ competenceID: 1, level: 2, efficiency: 1 }],
  zones: [{ zoneID: 5, bindingType: 0 as const }],
  mapObjects: [{ objectID: 8 }],
};

/** POST and PUT: `name` required; every other field optional (PUT gives omitted fields their defaults). */
export const EmployeeWrite = withExamples(Type.Object({ name, ...writableFields }, { additionalProperties: false }), {
  ...employeeFields,
  vehicleSettings: { speedLimit: 80 },
});
export type EmployeeWrite = Static<typeof EmployeeWrite>;

/** PATCH: any subset; only the fields present change. */
export const EmployeePatch = withExamples(Type.Object({ name: Type.Optional(name), ...writableFields }, { additionalProperties: false }), {
  phone: '+79167654321',
  isActive: true,
});
export type EmployeePatch = Static<typeof EmployeePatch>;

export const Employee = Type.Object({
  subscriberID: Type.Integer(),
  name: Type.String(),
  regionID: nullable(Type.Integer()),
  isActive: Type.Boolean(),
  subscriberTariffTypeID: nullable(Type.Integer()),
  canTrack: Type.Boolean(),
  canRequest: Type.Boolean(),
  canSend: Type.Boolean(),
  isOnline: Type.Boolean(),
  isLocateEnabled: Type.Boolean(),
  isBlockEnabled: Type.Boolean(),
  phone: Type.String(),
  icon: Type.String(),
  subscriberGroupID: nullable(Type.Integer()),
  externalSubscriberID: nullable(Type.String()),
  allowedOvertime: Type.Number(),
  workScheduleID: nullable(Type.Integer()),
  startLocationLatitude: nullable(Type.Number()),
  startLocationLongitude: nullable(Type.Number()),
  customFieldsFormTemplateID: nullable(Type.Integer()),
  customFieldFormItems: Type.Optional(
    Type.Array(
      Type.Object({
        externalID: Type.String(),
        name: Type.String(),
        value: Type.Optional(nullable(Type.String())),
        values: Type.Optional(Type.Array(Type.String())),
        type: Type.String(),
      }),
    ),
  ),
  competences: Type.Array(Type.Object({ competenceID: Type.Integer(), level: Type.Optional(Type.Number()), efficiency: Type.Optional(Type.Number()) })),
  zones: Type.Array(Type.Object({ zoneID: Type.Integer(), bindingType: Type.Integer() })),
  mapObjects: Type.Array(Type.Object({ objectID: Type.Integer() })),
  subscriberTypeID: nullable(Type.Integer()),
  userBossID: nullable(Type.Integer()),
  vehicleSettings: VehicleSettings,
  kind: EmployeeKind,
  /** A vehicle's registration plate and model, as written on it; '' when not set. */
  vehiclePlate: Type.String(),
  vehicleModel: Type.String(),
  deviceType: nullable(DeviceType),
  deviceKey: nullable(Type.String()),
  deviceProtocol: nullable(DeviceProtocolSchema),
  /** Whether the terminal's login must carry a password; the password itself is never answered. */
  hasDevicePassword: Type.Boolean(),
});
export type Employee = Static<typeof Employee>;

/** Olga as the create answers her: the fields sent, the defaults for the rest, and the generated device key. */
export const employeeExample: Employee = {
  subscriberID: 17,
  regionID: null,
  isActive: true,
  canSend: false,
  isOnline: false,
  isLocateEnabled: true,
  isBlockEnabled: true,
  icon: '',
  allowedOvertime: 0,
  workScheduleID: null,
  subscriberTypeID: null,
  userBossID: null,
  ...employeeFields,
  vehicleSettings: { speedLimit: 80, prolongedSpeedSeconds: 60, fuelFillThreshold: 10, fuelDrainThreshold: 10, sensorLimits: [], initialOdometer: 0 },
  kind: 'person',
  vehiclePlate: '',
  vehicleModel: '',
  deviceType: 'phone',
  deviceKey: 'K7QPM4XWT9HR',
  deviceProtocol: null,
  hasDevicePassword: false,
};

/**
 * An employee as reads answer it: the device key is the phone's only credential, so it is shown
 * once (in the answer to the create) and afterwards only its last characters, as a hint.
 */
const { deviceKey: _deviceKey, ...viewedFields } = Employee.properties;

/** Where and when the employee's device was last heard, as the service saw it (never written by a client). */
export const DeviceStatus = Type.Object({
  lastAddress: nullable(Type.String({ description: 'the IP address its last accepted login came from (trackers); null before one' })),
  lastConnectionDate: nullable(Type.String({ format: 'date-time', description: 'when that login was accepted' })),
  lastDataDate: nullable(Type.String({ format: 'date-time', description: 'when its fixes last arrived (to within half a minute)' })),
});
export type DeviceStatus = Static<typeof DeviceStatus>;

export const EmployeeView = Type.Object({
  ...viewedFields,
  deviceKeyHint: nullable(Type.String({ description: 'the last 4 characters of the device key, to tell phones apart' })),
  deviceStatus: DeviceStatus,
});
export type EmployeeView = Static<typeof EmployeeView>;

/** The device columns of an employee's row, in epoch milliseconds. */
export interface DeviceStatusRow {
  address: string | null;
  connectedAtMs: number | null;
  seenAtMs: number | null;
}

/** An employee as read from the store: with what the service saw of its device. */
export type StoredEmployee = Employee & { deviceSeen?: DeviceStatusRow };

export function toEmployeeView(employee: StoredEmployee, formatDate: (epochMs: number) => string): EmployeeView {
  const { deviceKey, deviceSeen, ...rest } = employee;
  const date = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : formatDate(ms));
  return {
    ...rest,
    deviceKeyHint: deviceKey === null ? null : `…${deviceKey.slice(-4)}`,
    deviceStatus: { lastAddress: deviceSeen?.address ?? null, lastConnectionDate: date(deviceSeen?.connectedAtMs), lastDataDate: date(deviceSeen?.seenAtMs) },
  };
}

export const employeeViewExample: EmployeeView = {
  ...toEmployeeView(employeeExample, () => ''),
  isOnline: true,
  deviceStatus: { lastAddress: '203.0.113.24', lastConnectionDate: '2026-03-02T08:55:12+03:00', lastDataDate: '2026-03-02T09:14:05+03:00' },
};

export const EmployeeListQuery = Type.Object({
  isActive: Type.Optional(withExamples(Type.Boolean(), true)),
  subscriberIDs: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  subscriberGroupIDs: Type.Optional(withExamples(Type.Array(Id, { maxItems: 1000 }), [2])),
  withCustomTemplateItems: Type.Optional(Type.Boolean({ default: true })),
  // No default: without `count` every employee is answered, as before.
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'at most 1000; all when omitted' })),
  offset: Type.Optional(Offset),
});
export type EmployeeListQuery = Static<typeof EmployeeListQuery>;
