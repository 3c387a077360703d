import { TruncatedFrameError } from '../byte-reader.js';
import { authParamsWithoutEncryption, decodeAuthInfo, decodeDispatcherIdentity } from './egts-auth.js';
import {
  AUTH_SERVICE,
  buildEgtsRecord,
  parseEgtsRecords,
  recordResponse,
  SR_AUTH_INFO,
  SR_AUTH_PARAMS,
  SR_DISPATCHER_IDENTITY,
  SR_RESULT_CODE,
  SR_TERM_IDENTITY,
  TELEDATA_SERVICE,
  type EgtsRecord,
} from './egts-records.js';
import { decodeTeledata, decodeTermIdentity } from './egts-teledata.js';
import { buildEgtsPacket, buildEgtsResponse, EGTS_PC, parseEgtsPacket, PT_APPDATA, PT_RESPONSE, PT_SIGNED_APPDATA } from './egts-transport.js';
import type { TrackerConnection, TrackerSession } from '../tracker-protocol.js';
import type { TrackerRecord } from '../tracker-record.js';

interface Confirmation {
  record: EgtsRecord;
  status: number;
}

/** An identity heard and waiting for its password (AUTH_INFO). */
type Pending = { kind: 'terminal'; keys: string[] } | { kind: 'retranslator'; dispatcherId: number };

/** What an AUTH record led to: a result code to send, a request for the password, or nothing yet. */
type AuthOutcome = number | 'ask' | null;

/**
 * An EGTS connection's dialogue: a terminal authenticates by TERM_IDENTITY (or names itself by the
 * records' object id), a retranslator by DISPATCHER_IDENTITY; either proves a password with
 * AUTH_INFO where one is set. Teledata records are confirmed one by one.
 */
export class EgtsSession implements TrackerSession {
  private nextPacketId = 0;
  private nextRecordNumber = 0;
  /** Refused: not looked up again; the connection closes after this packet. */
  private refused = false;
  private pending: Pending | null = null;
  /**
   * A terminal is one vehicle: the object id of its first teledata record. A record naming another
   * is not its own and is refused (OBJ_NFOUND), never stored on this vehicle nor looked up:
   * relaying several vehicles takes a retranslator's session.
   */
  private objectId: number | null = null;

  constructor(private readonly connection: TrackerConnection) {}

  private respond(answeredPacketId: number, result: number, confirmations: Confirmation[] = []): void {
    const records = confirmations.map(({ record, status }) => buildEgtsRecord(this.nextRecordNumber++, record.serviceType, [recordResponse(record.number, status)]));
    this.connection.send(buildEgtsResponse(this.nextPacketId++, answeredPacketId, result, records));
  }

  async handle(frame: Buffer): Promise<void> {
    const { connection } = this;
    const checked = parseEgtsPacket(frame);
    if ('error' in checked) {
      this.respond(checked.packetId, checked.error);
      connection.warn('EGTS packet refused', { result: checked.error });
      // With a broken header even the frame's length is doubtful: the stream cannot be trusted.
      if (checked.error === EGTS_PC.HEADERCRC_ERROR) connection.close('bad header CRC');
      return;
    }
    const { packet } = checked;
    // The terminal's confirmations of what this server sent: nothing to do.
    if (packet.packetType === PT_RESPONSE) return;
    let records: EgtsRecord[];
    let password: string | undefined;
    try {
      if (packet.packetType !== PT_APPDATA && packet.packetType !== PT_SIGNED_APPDATA) throw new TruncatedFrameError('unknown packet type');
      // A signed packet starts with SIGL and the signature, which terminals leave empty in practice.
      const data = packet.packetType === PT_SIGNED_APPDATA ? packet.body.subarray(2 + packet.body.readUInt16LE(0)) : packet.body;
      records = parseEgtsRecords(data);
      password = passwordOf(records);
    } catch (error) {
      if (!(error instanceof TruncatedFrameError || error instanceof RangeError)) throw error;
      return this.respond(packet.packetId, EGTS_PC.INC_DATAFORM);
    }

    const confirmations: Confirmation[] = [];
    const positions: TrackerRecord[] = [];
    let outcome: AuthOutcome = null;
    let denied = false;
    for (const record of records) {
      if (record.serviceType === AUTH_SERVICE) {
        if (!connection.identified && !this.refused) outcome = (await this.authenticate(record, password)) ?? outcome;
        confirmations.push({ record, status: EGTS_PC.OK });
      } else if (record.serviceType === TELEDATA_SERVICE) {
        const status = await this.teledata(record, positions);
        if (status === EGTS_PC.AUTH_DENIED) denied = true;
        confirmations.push({ record, status });
      } else {
        // Commands, firmware and other services: confirmed, Lokator does not use them.
        confirmations.push({ record, status: EGTS_PC.OK });
      }
    }
    if (positions.length > 0) await connection.store(positions);
    this.respond(packet.packetId, EGTS_PC.OK, confirmations);
    if (outcome === 'ask') this.sendAuthRecord(SR_AUTH_PARAMS, authParamsWithoutEncryption());
    else if (outcome !== null) this.sendAuthRecord(SR_RESULT_CODE, Buffer.from([outcome]));
    // Teledata before any identity is a stranger's; before its password, the dialogue goes on.
    if (this.refused || (denied && this.pending === null)) connection.close(this.pending?.kind === 'retranslator' ? 'retranslator refused' : 'unknown terminal');
  }

  /** An AUTH_SERVICE record: the identity it names, checked now or once its password comes. */
  private async authenticate(record: EgtsRecord, password: string | undefined): Promise<AuthOutcome> {
    try {
      for (const { type, data } of record.subrecords) {
        if (type === SR_TERM_IDENTITY) {
          // The IMEI when the terminal sends one, else its terminal id (TID), is the device key.
          const identity = decodeTermIdentity(data);
          this.pending = { kind: 'terminal', keys: [...new Set([identity.imei, String(identity.terminalId)].filter((key): key is string => key !== null))] };
        } else if (type === SR_DISPATCHER_IDENTITY) {
          this.pending = { kind: 'retranslator', dispatcherId: decodeDispatcherIdentity(data).dispatcherId };
        }
      }
    } catch (error) {
      if (error instanceof TruncatedFrameError) return EGTS_PC.INC_DATAFORM;
      throw error;
    }
    const { pending } = this;
    if (pending === null) return null;
    let accepted: boolean;
    if (pending.kind === 'retranslator') {
      if (password === undefined) return 'ask';
      accepted = await this.connection.identifyRetranslator(pending.dispatcherId, password);
    } else {
      const outcome = await this.connection.login(pending.keys, password ?? null);
      // Asked once: a password that came and was not the device's is refused, not asked for again.
      if (outcome === 'password-required' && password === undefined) return 'ask';
      accepted = outcome === 'accepted';
    }
    if (accepted) {
      this.pending = null;
      return EGTS_PC.OK;
    }
    this.refused = true;
    return EGTS_PC.AUTH_DENIED;
  }

  /** A TELEDATA_SERVICE record: its positions added to `positions`; the record's status. */
  private async teledata(record: EgtsRecord, positions: TrackerRecord[]): Promise<number> {
    const { connection } = this;
    // Terminals that skip the AUTH service name themselves by the records' object id (OID).
    if (!connection.identified && !this.refused && this.pending === null && record.objectId !== null) {
      if (await connection.identify([String(record.objectId)])) this.objectId = record.objectId;
      // A terminal with a device password must send it in AUTH_INFO: naming itself is not enough.
      else this.refused = true;
    }
    if (!connection.identified) return EGTS_PC.AUTH_DENIED;
    if (connection.retranslating) {
      if (record.objectId === null || !(await connection.findObject(String(record.objectId)))) return EGTS_PC.OBJ_NFOUND;
    } else if (record.objectId !== null) {
      this.objectId ??= record.objectId;
      if (record.objectId !== this.objectId) {
        connection.warn('EGTS record of another object refused', { recordNumber: record.number });
        return EGTS_PC.OBJ_NFOUND;
      }
    }
    const first = positions.length;
    try {
      decodeTeledata(record, positions);
    } catch (error) {
      if (!(error instanceof TruncatedFrameError)) throw error;
      // A record that cannot be decoded whole is refused whole.
      positions.length = first;
      return EGTS_PC.INC_DATAFORM;
    }
    if (connection.retranslating) {
      const deviceKey = String(record.objectId);
      for (let i = first; i < positions.length; i++) positions[i]!.deviceKey = deviceKey;
    }
    return EGTS_PC.OK;
  }

  /** A record of AUTH_SERVICE from this server: the authentication's RESULT_CODE, or AUTH_PARAMS asking for AUTH_INFO. */
  private sendAuthRecord(type: number, data: Buffer): void {
    const record = buildEgtsRecord(this.nextRecordNumber++, AUTH_SERVICE, [{ type, data }]);
    this.connection.send(buildEgtsPacket(this.nextPacketId++, PT_APPDATA, record));
  }
}

/** The password of the packet's EGTS_SR_AUTH_INFO, if it has one (it may come beside the identity or after it). */
function passwordOf(records: EgtsRecord[]): string | undefined {
  for (const record of records) {
    if (record.serviceType !== AUTH_SERVICE) continue;
    const info = record.subrecords.find((s) => s.type === SR_AUTH_INFO);
    if (info) return decodeAuthInfo(info.data).password;
  }
  return undefined;
}
