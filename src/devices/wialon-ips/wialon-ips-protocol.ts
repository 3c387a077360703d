import { printablePasswordProblem, type TcpDeviceProtocol } from '../device-protocol.js';
import { WIALON_MAX_LINE_BYTES, wialonFrameLength } from './wialon-message.js';
import { wialonReadingMap } from './wialon-reading-map.js';
import { WialonSession } from './wialon-session.js';

/** Wialon IPS 1.1 and 2.0 over TCP: one message a line (wialon-session.ts). */
export const wialonIpsProtocol = {
  name: 'wialonIps',
  label: 'Wialon IPS',
  transport: 'tcp',
  port: { setting: 'WIALON_IPS_PORT', default: 5039, doc: 'TCP port of the Wialon IPS 1.1/2.0 listener for vehicle trackers; 0 switches it off' },
  deviceKey: {
    // The login is `#L#id;password`: the id ends at the first `;`, and `#` frames the message.
    problem: (key) => (/^[\x21-\x7e]{1,128}$/.test(key) && !/[;#]/.test(key) ? null : 'must be 1 to 128 printable characters without ";" or "#" for Wialon IPS'),
    hint: {
      en: 'The id of its login (#L#id;…): the IMEI or a short id such as 2002.',
      ru: 'Идентификатор, с которым терминал входит на сервер: IMEI или короткий номер, например 2002.',
    },
  },
  password: {
    problem: (password) =>
      printablePasswordProblem(password) ?? (/[;#]/.test(password) || password === 'NA' ? 'must not contain ";" or "#" nor be "NA" (no password) for Wialon IPS' : null),
  },
  defaultReadingMap: wialonReadingMap,
  maxFrameBytes: WIALON_MAX_LINE_BYTES,
  frameLength: wialonFrameLength,
  open: (connection) => new WialonSession(connection),
} as const satisfies TcpDeviceProtocol;
