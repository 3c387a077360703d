import type { TcpDeviceProtocol } from '../device-protocol.js';
import { teltonikaFrameLength } from './teltonika-codec.js';
import { teltonikaReadingMap } from './teltonika-reading-map.js';
import { TeltonikaSession } from './teltonika-session.js';

/** Teltonika over TCP (codecs 8 and 8 Extended): IMEI handshake, then AVL packets (teltonika-session.ts). */
export const teltonikaProtocol = {
  name: 'teltonika',
  label: 'Teltonika',
  transport: 'tcp',
  port: { setting: 'TELTONIKA_PORT', default: 5027, doc: 'TCP port of the Teltonika (codec 8, 8 Extended) listener for vehicle trackers; 0 switches it off' },
  deviceKey: {
    problem: (key) => (/^\d{15}$/.test(key) ? null : "must be the terminal's 15-digit IMEI for Teltonika"),
    hint: {
      en: 'The terminal’s 15-digit IMEI. Teltonika terminals send no password: whoever knows the IMEI can report as this vehicle.',
      ru: 'IMEI терминала, 15 цифр. Терминалы Teltonika не передают пароль: кто знает IMEI, может передавать данные от имени этой машины.',
    },
  },
  // The handshake is the IMEI alone.
  password: null,
  defaultReadingMap: teltonikaReadingMap,
  // The wiki caps FMB packets at 1280 bytes; heavier models send more with Codec 8 Extended.
  maxFrameBytes: 64 * 1024,
  frameLength: teltonikaFrameLength,
  open: (connection) => new TeltonikaSession(connection),
} as const satisfies TcpDeviceProtocol;
