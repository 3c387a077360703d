import type { TrackerConnection, TrackerSession } from '../tracker-protocol.js';
import type { TrackerRecord } from '../tracker-record.js';
import { checkedWialonBody, parseWialonLine, parseWialonLogin, parseWialonRecord } from './wialon-message.js';

/** `#AL#01`: the login's password was refused (both versions of the protocol). */
const PASSWORD_ERROR = '01';

/** The 2.0 checksum error codes of each answer. */
const CRC_ERROR = { AL: '10', ASD: '13', AD: '16' } as const;

/** A Wialon IPS connection's dialogue: `#L#` login, `#SD#` / `#D#` records, `#B#` black boxes, `#P#` pings. */
export class WialonSession implements TrackerSession {
  private version: '1.1' | '2.0' = '1.1';

  constructor(private readonly connection: TrackerConnection) {}

  private answer(type: string, value: string | number = ''): void {
    this.connection.send(`#${type}#${value}\r\n`);
  }

  async handle(frame: Buffer): Promise<void> {
    const line = frame.toString('utf8').replace(/\r?\n$/, '');
    if (line.trim() === '') return;
    const message = parseWialonLine(line);
    if (!message) return this.connection.close('not a Wialon IPS message');
    const { type, body } = message;
    if (type === 'L') return this.login(body);
    if (type === 'P') return this.answer('AP');
    if (!this.connection.identified) return this.connection.close('data before the login');
    if (type === 'SD' || type === 'D') return this.data(type, body);
    if (type === 'B') return this.blackBox(body);
    // Messages to the driver are answered so the terminal does not repeat them; Lokator keeps no chat.
    if (type === 'M') return this.answer('AM', 1);
    this.connection.warn('Wialon IPS message type not handled', { type });
  }

  private async login(body: string): Promise<void> {
    const { connection } = this;
    if (connection.identified) return connection.close('a second login');
    const login = parseWialonLogin(body);
    if (login === 'crc') return this.answer('AL', CRC_ERROR.AL);
    if (!login) {
      this.answer('AL', 0);
      return connection.close('malformed login');
    }
    // The password counts only for an employee that has a device password; else the id is the
    // credential, as a phone's key is on the OsmAnd port. `NA` is the protocol's "no password".
    const password = login.password === 'NA' || login.password === '' ? null : login.password;
    const outcome = await connection.login([login.imei], password);
    if (outcome === 'accepted') {
      this.version = login.version;
      return this.answer('AL', 1);
    }
    if (outcome === 'unknown') {
      this.answer('AL', 0);
      return connection.close('unknown terminal');
    }
    this.answer('AL', PASSWORD_ERROR);
    connection.close('wrong device password');
  }

  private async data(type: 'SD' | 'D', body: string): Promise<void> {
    const answer = `A${type}`;
    let fields = body;
    if (this.version === '2.0') {
      const checked = checkedWialonBody(body, ';');
      if (checked === null) return this.answer(answer, type === 'SD' ? CRC_ERROR.ASD : CRC_ERROR.AD);
      fields = checked;
    }
    const parsed = parseWialonRecord(fields, type, this.connection.now());
    if ('error' in parsed) return this.answer(answer, parsed.error);
    if (parsed.record) await this.connection.store([parsed.record]);
    this.answer(answer, 1);
  }

  /** Records of the tracker's buffer; the answer counts the ones accepted (the tracker drops that many). */
  private async blackBox(body: string): Promise<void> {
    let messages = body;
    if (this.version === '2.0') {
      const checked = checkedWialonBody(body, '|');
      if (checked === null) return this.answer('AB', 0);
      messages = checked;
    }
    const now = this.connection.now();
    const records: TrackerRecord[] = [];
    let accepted = 0;
    for (const message of messages.split('|')) {
      const parsed = parseWialonRecord(message, null, now);
      if ('error' in parsed) {
        this.connection.warn('black box record refused', { code: parsed.error });
        continue;
      }
      accepted++;
      if (parsed.record) records.push(parsed.record);
    }
    await this.connection.store(records);
    this.answer('AB', accepted);
  }
}
