/**
 * A vehicle tracker to try Lokator's tracker listeners with, without a terminal at hand (README's
 * "A tracker", docs/operators/trackers.md). It speaks Teltonika Codec 8 Extended, Wialon IPS (1.1 or 2.0) or EGTS over
 * TCP, with the frames of scripts/trackers (written from the protocols' documents, apart from the
 * server's decoders), logs in with the IMEI and sends a drive: idling at the depot, city driving,
 * a stretch above 90 km/h, a stop at a filling station with the ignition off while 40 litres go
 * in, more driving, then parked with the external power cut. Each record carries the readings of
 * the protocol's default map (fuel level, ignition, external power, odometer), so tracks, a fuel
 * filling, speeding and the power-off signal come out of the v6 routes.
 *
 *   npm run simulate:terminal -- teltonika 356307042441013
 *   npm run simulate:terminal -- wialon 356307042441013 --version 2.0 --host lokator.example.com
 *   npm run simulate:terminal -- egts 864495034643376 --buffered --minutes 30
 *
 * Live (the default): a record every `--interval` whole seconds (5), dated now, for `--minutes` (10).
 * `--buffered`: the whole drive dated in the past, ending now, sent at once as the terminal's
 * black box (Teltonika's stored records, Wialon `#B#`, EGTS history), 50 records a packet.
 * `--host` (127.0.0.1) and `--port` (the protocol's default: Teltonika 5027, Wialon IPS 5039,
 * EGTS 5162). `--password`: the Wialon IPS login's password, for an employee with a device
 * password (default `NA`, none). Prints each acknowledgement; exits 1 if the server refuses the terminal (create an
 * employee whose deviceKey is the IMEI first) or does not answer within 30 s.
 */
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { settings } from '../src/config.js';
import { EGTS_EPOCH_S, egtsPacket, egtsRecord, liquidLevel, posData, readEgtsPacket, stateData, termIdentity } from './trackers/egts-encoder.js';
import { teltonikaHandshake, teltonikaPacket, wialonLine, wialonLogin, wialonRecord } from './trackers/tracker-encoders.js';

/** The server's own defaults (EGTS_PORT, WIALON_IPS_PORT, TELTONIKA_PORT), so the two never disagree. */
const DEFAULT_PORTS = { teltonika: settings.TELTONIKA_PORT.default, wialon: settings.WIALON_IPS_PORT.default, egts: settings.EGTS_PORT.default };
type Protocol = keyof typeof DEFAULT_PORTS;
const RECORDS_PER_PACKET = 50;
const ANSWER_TIMEOUT_MS = 30_000;

/** One moment of the drive, in the units of Lokator's readings. */
interface DriveRecord {
  timeMs: number;
  latitude: number;
  longitude: number;
  speedKmh: number;
  angle: number;
  ignition: boolean;
  fuelLitres: number;
  powerVolts: number;
  odometerKm: number;
}

/**
 * The drive, `count` records `intervalMs` apart from `startMs`, by the share of the drive done:
 * idling at the depot (to 5%), driving (to 40%; above 90 km/h from 20 to 30%), at the filling
 * station with the ignition off (to 60%; the tank goes from about 25 to 65 litres over 45–50%),
 * driving (to 92%), parked with the ignition off, the external power cut from 96%.
 */
function drive(startMs: number, count: number, intervalMs: number, from = { latitude: 55.7512, longitude: 37.6184 }): DriveRecord[] {
  const records: DriveRecord[] = [];
  let { latitude, longitude } = from;
  let fuel = 30;
  let odometer = 12_480;
  let heading = 60;
  for (let i = 0; i < count; i++) {
    const share = count === 1 ? 0 : i / (count - 1);
    const driving = (share >= 0.05 && share < 0.4) || (share >= 0.6 && share < 0.92);
    const fast = share >= 0.2 && share < 0.3;
    const speedKmh = driving ? Math.round(fast ? 98 + Math.random() * 8 : 35 + Math.random() * 30) : 0;
    if (driving) {
      heading = (heading + (Math.random() - 0.5) * 20 + 360) % 360;
      const km = (speedKmh * intervalMs) / 3_600_000;
      latitude += (km / 111.2) * Math.cos((heading * Math.PI) / 180);
      longitude += (km / (111.2 * Math.cos((latitude * Math.PI) / 180))) * Math.sin((heading * Math.PI) / 180);
      odometer += km;
      fuel -= km * 0.11;
    }
    const filling = share >= 0.45 && share < 0.5;
    if (filling) fuel += 40 / Math.max(1, Math.round(count * 0.05));
    records.push({
      timeMs: startMs + i * intervalMs,
      latitude,
      longitude,
      speedKmh,
      angle: Math.round(heading),
      ignition: share < 0.4 || (share >= 0.6 && share < 0.92),
      fuelLitres: Math.round(Math.max(0, fuel) * 10) / 10,
      powerVolts: share >= 0.96 ? 0 : 12.6 + Math.random() * 0.6,
      odometerKm: odometer,
    });
  }
  return records;
}

/** Reads the server's answers off the socket: whole bytes, lines or EGTS packets, each within a deadline. */
class Answers {
  private buffered = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  private closed = false;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiter?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
  }

  /** The first `length(buffered)` bytes once that many have arrived (`length` answers null while it cannot tell). */
  private async take(length: (buffered: Buffer) => number | null): Promise<Buffer> {
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    for (;;) {
      const wanted = length(this.buffered);
      if (wanted !== null && this.buffered.length >= wanted) {
        const answer = this.buffered.subarray(0, wanted);
        this.buffered = this.buffered.subarray(wanted);
        return answer;
      }
      if (this.closed) throw new Error('the server closed the connection');
      if (Date.now() > deadline) throw new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
  }

  bytes(count: number): Promise<Buffer> {
    return this.take(() => count);
  }

  async line(): Promise<string> {
    const end = await this.take((buffered) => {
      const at = buffered.indexOf('\r\n');
      return at < 0 ? null : at + 2;
    });
    return end.toString('latin1').trimEnd();
  }

  /** One EGTS transport packet: header length at byte 3, body length at 5–6, and the body's CRC-16 when there is a body. */
  egtsPacket(): Promise<Buffer> {
    return this.take((buffered) => (buffered.length < 7 ? null : buffered[3]! + buffered.readUInt16LE(5) + (buffered.readUInt16LE(5) > 0 ? 2 : 0)));
  }
}

/** What a protocol needs of the simulator: log in, then send records and say how many the server acknowledged. */
interface Terminal {
  login(): Promise<void>;
  send(records: DriveRecord[]): Promise<number>;
}

function teltonika(imei: string, answers: Answers): Terminal {
  return {
    async login() {
      answers.socket.write(teltonikaHandshake(imei));
      const answer = await answers.bytes(1);
      if (answer[0] !== 1) throw new Error(`the server refused IMEI ${imei} (create an employee whose deviceKey is the IMEI)`);
    },
    async send(records) {
      answers.socket.write(
        teltonikaPacket(
          records.map((r) => ({
            timeMs: r.timeMs, latitude: r.latitude, longitude: r.longitude, angle: r.angle, satellites: 11, speedKmh: r.speedKmh,
            // 239 ignition, 66 external voltage (mV), 16 total odometer (m), 201 LLS 1 fuel level (litres).
            io: { 239: [1, r.ignition ? 1 : 0], 66: [2, Math.round(r.powerVolts * 1000)], 16: [4, Math.round(r.odometerKm * 1000)], 201: [2, Math.round(r.fuelLitres)] },
          })),
          0x8e,
        ),
      );
      return (await answers.bytes(4)).readUInt32BE(0);
    },
  };
}

function wialon(imei: string, answers: Answers, version: '1.1' | '2.0', password: string): Terminal {
  const fields = (r: DriveRecord) =>
    wialonRecord({
      timeMs: r.timeMs, latitude: r.latitude, longitude: r.longitude, speedKmh: r.speedKmh, course: r.angle, height: 150, sats: 11, hdop: 0.9,
      params: { fuel: [2, r.fuelLitres.toFixed(1)], ign: [1, r.ignition ? 1 : 0], pwr_ext: [2, r.powerVolts.toFixed(2)], odometer: [2, r.odometerKm.toFixed(3)] },
    });
  return {
    async login() {
      answers.socket.write(wialonLogin(imei, password, version));
      const answer = await answers.line();
      if (answer.startsWith('#AL#01')) throw new Error(`the server refused the password for ${imei} (give the employee's devicePassword with --password)`);
      if (!answer.startsWith('#AL#1')) throw new Error(`the server refused IMEI ${imei} with ${answer} (create an employee whose deviceKey is the IMEI)`);
    },
    async send(records) {
      if (records.length === 1) {
        answers.socket.write(wialonLine('D', fields(records[0]!), version));
        const answer = await answers.line();
        if (!answer.startsWith('#AD#1')) throw new Error(`the record was refused: ${answer}`);
        return 1;
      }
      answers.socket.write(wialonLine('B', records.map(fields).join('|'), version, '|'));
      const answer = await answers.line();
      const match = /^#AB#(\d+)/.exec(answer);
      if (!match) throw new Error(`the black box was refused: ${answer}`);
      return Number(match[1]);
    },
  };
}

function egts(imei: string, answers: Answers): Terminal {
  const AUTH = 1;
  const TELEDATA = 2;
  const terminalId = Number(imei.slice(-9)) || 1;
  let packetId = 0;
  let recordNumber = 0;
  return {
    async login() {
      answers.socket.write(egtsPacket(egtsRecord({ number: ++recordNumber, serviceType: AUTH, objectId: terminalId, subrecords: [termIdentity(terminalId, imei)] }), { packetId: ++packetId }));
      const response = readEgtsPacket(await answers.egtsPacket());
      if (response.response?.result !== 0) throw new Error(`the server refused the packet: result ${response.response?.result}`);
      // Then the authentication's outcome: RESULT_CODE 0, or 151 for an unknown terminal.
      const result = readEgtsPacket(await answers.egtsPacket()).records[0]?.subrecords[0]?.data[0];
      if (result !== 0) throw new Error(`the server refused terminal ${imei} with result code ${result} (create an employee whose deviceKey is the IMEI)`);
    },
    async send(records) {
      const body = Buffer.concat(
        records.map((r) =>
          egtsRecord({
            number: ++recordNumber,
            serviceType: TELEDATA,
            objectId: terminalId,
            time: Math.round(r.timeMs / 1000 - EGTS_EPOCH_S),
            subrecords: [
              posData({ timeMs: r.timeMs, latitude: r.latitude, longitude: r.longitude, speedKmh: r.speedKmh, angle: r.angle, odometerKm: r.odometerKm, inputs: r.ignition ? 1 : 0 }),
              stateData(r.powerVolts, 4.1, 3.9),
              liquidLevel(1, 2, Math.round(r.fuelLitres * 10)),
            ],
          }),
        ),
      );
      answers.socket.write(egtsPacket(body, { packetId: ++packetId }));
      const response = readEgtsPacket(await answers.egtsPacket());
      if (response.response?.result !== 0) throw new Error(`the server refused the packet: result ${response.response?.result}`);
      return response.records.filter((record) => record.subrecords[0]?.data[2] === 0).length;
    },
  };
}

/**
 * Now, to the second below: trackers date records in whole seconds (EGTS and Wialon IPS can say
 * nothing finer), and a record rounded up would lie a moment in the future.
 */
const wholeSecondNow = () => Math.floor(Date.now() / 1000) * 1000;

const describe = (r: DriveRecord) =>
  `${new Date(r.timeMs).toISOString().slice(11, 19)} ${r.latitude.toFixed(5)},${r.longitude.toFixed(5)} ${r.speedKmh} km/h, ignition ${r.ignition ? 'on' : 'off'}, fuel ${r.fuelLitres.toFixed(1)} l, power ${r.powerVolts.toFixed(1)} V`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string' },
      interval: { type: 'string', default: '5' },
      minutes: { type: 'string', default: '10' },
      buffered: { type: 'boolean', default: false },
      version: { type: 'string', default: '1.1' },
      password: { type: 'string', default: 'NA' },
    },
  });
  const [protocol, imei] = positionals as [string | undefined, string | undefined];
  const positive = (text: string) => Number.isFinite(Number(text)) && Number(text) > 0;
  const port = values.port === undefined ? DEFAULT_PORTS[protocol as Protocol] : Number(values.port);
  const version = values.version === '1.1' || values.version === '2.0' ? values.version : null;
  const understood =
    protocol !== undefined && protocol in DEFAULT_PORTS && imei !== undefined && imei !== '' && positionals.length === 2 &&
    positive(values.interval) && positive(values.minutes) && Number.isInteger(port) && port > 0 && port < 65_536;
  if (!understood || version === null) {
    process.stderr.write('usage: npm run simulate:terminal -- <teltonika|wialon|egts> <imei> [--host H] [--port P] [--interval s] [--minutes m] [--buffered] [--version 1.1|2.0] [--password P]\n');
    process.exit(2);
  }
  const intervalMs = Math.max(1, Math.round(Number(values.interval))) * 1000;
  const count = Math.max(1, Math.round((Number(values.minutes) * 60_000) / intervalMs));
  const socket = connect(port, values.host);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const answers = new Answers(socket);
  const terminal = protocol === 'teltonika' ? teltonika(imei, answers) : protocol === 'wialon' ? wialon(imei, answers, version, values.password) : egts(imei, answers);
  await terminal.login();
  process.stdout.write(`${protocol} ${imei}: logged in to ${values.host}:${port}\n`);

  let acknowledged = 0;
  if (values.buffered) {
    const records = drive(wholeSecondNow() - (count - 1) * intervalMs, count, intervalMs);
    for (let i = 0; i < records.length; i += RECORDS_PER_PACKET) {
      const packet = records.slice(i, i + RECORDS_PER_PACKET);
      const answered = await terminal.send(packet);
      acknowledged += answered;
      process.stdout.write(`sent ${packet.length} buffered records up to ${describe(packet.at(-1)!)}: ${answered} acknowledged\n`);
    }
  } else {
    // Each record is sent when its second has come, dated that second.
    const records = drive(wholeSecondNow(), count, intervalMs);
    for (const record of records) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, record.timeMs - Date.now())));
      const answered = await terminal.send([record]);
      acknowledged += answered;
      process.stdout.write(`sent ${describe(record)}: ${answered ? 'acknowledged' : 'not acknowledged'}\n`);
    }
  }
  socket.end();
  process.stdout.write(`${acknowledged} of ${count} records acknowledged\n`);
  if (acknowledged !== count) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
