import type { HttpDeviceProtocol } from '../device-protocol.js';
import type { ReadingMap } from '../reading-map.js';
import { decodeOsmAnd } from './osmand-decoder.js';

/** The parameters Traccar's OsmAnd decoder reads as fuel (litres) and ignition; nothing else is a reading. */
const osmandReadingMap: ReadingMap = { fuelLevel: { input: 'fuel' }, ignition: { input: 'ignition' }, externalPower: null, odometer: null, engineHours: null, sensors: [] };

/**
 * The OsmAnd protocol over HTTP (Traccar Client, OsmAnd, many trackers): one fix a request, any
 * path, the device key as `id`. The key is the phone's only credential.
 */
export const osmandProtocol = {
  name: 'osmand',
  label: 'OsmAnd',
  transport: 'http',
  port: { setting: 'OSMAND_PORT', default: 5055, doc: 'HTTP port of the OsmAnd protocol listener for phones and trackers; 0 switches it off' },
  deviceKey: {
    problem: (key) => (/^[\x21-\x7e]{6,128}$/.test(key) ? null : 'must be 6 to 128 printable characters (no spaces) for a phone on the OsmAnd port'),
    hint: {
      en: 'The device identifier set in Traccar Client or the tracker: 6 to 128 characters, hard to guess.',
      ru: 'Идентификатор устройства из настроек Traccar Client или трекера: от 6 до 128 символов, такой, чтобы его нельзя было угадать.',
    },
  },
  password: null,
  defaultReadingMap: osmandReadingMap,
  decode: decodeOsmAnd,
} as const satisfies HttpDeviceProtocol;
