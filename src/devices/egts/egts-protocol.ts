import { printablePasswordProblem, type TcpDeviceProtocol } from '../device-protocol.js';
import { egtsReadingMap } from './egts-reading-map.js';
import { EgtsSession } from './egts-session.js';
import { egtsFrameLength } from './egts-transport.js';

/**
 * EGTS over TCP (GOST R 54619 / 33472): terminals and retranslators, teledata records confirmed
 * one by one (egts-session.ts; docs/operators/devices-egts.md).
 */
export const egtsProtocol = {
  name: 'egts',
  label: 'EGTS',
  transport: 'tcp',
  port: { setting: 'EGTS_PORT', default: 5162, doc: 'TCP port of the EGTS listener for vehicle trackers (GOST 33472); 0 switches it off' },
  deviceKey: {
    // The IMEI when the terminal sends one, else its terminal id (TID) or the records' object id.
    problem: (key) =>
      /^\d{15}$/.test(key) || (/^(0|[1-9]\d{0,9})$/.test(key) && Number(key) <= 4_294_967_295)
        ? null
        : 'must be the terminal or object id in decimal (0 to 4294967295, no leading zeros) or a 15-digit IMEI for EGTS',
    hint: {
      en: 'The terminal’s IMEI, else its terminal or object id (such as 866).',
      ru: 'IMEI терминала, иначе его идентификатор терминала или объекта (например, 866).',
    },
  },
  password: { problem: printablePasswordProblem },
  defaultReadingMap: egtsReadingMap,
  // FDL is 16 bits: no transport packet is larger than the routed header, 65,535 bytes and the CRC.
  maxFrameBytes: 16 + 65_535 + 2,
  frameLength: egtsFrameLength,
  open: (connection) => new EgtsSession(connection),
} as const satisfies TcpDeviceProtocol;
