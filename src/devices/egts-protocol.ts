import { TruncatedFrameError } from './byte-reader.js';
import { AUTH_SERVICE, buildEgtsRecord, parseEgtsRecords, recordResponse, SR_RESULT_CODE, SR_TERM_IDENTITY, TELEDATA_SERVICE, type EgtsRecord } from './egts-records.js';
import { egtsReadingMap } from './egts-reading-map.js';
import { decodeTeledata, decodeTermIdentity } from './egts-teledata.js';
import { buildEgtsPacket, buildEgtsResponse, EGTS_PC, egtsFrameLength, parseEgtsPacket, PT_APPDATA, PT_RESPONSE, PT_SIGNED_APPDATA } from './egts-transport.js';
import type { TrackerConnection, TrackerProtocol, TrackerSession } from './tracker-protocol.js';
import type { TrackerRecord } from './tracker-record.js';

/** EGTS over TCP: authentication by TERM_IDENTITY (or the records' object id), teledata records confirmed one by one. */
export const egtsProtocol: TrackerProtocol = {
  name: 'egts',
  deviceProtocol: 'egts',
  // FDL is 16 bits: no transport packet is larger than the routed header, 65,535 bytes and the CRC.
  maxFrameBytes: 16 + 65_535 + 2,
  defaultReadingMap: egtsReadingMap,
  frameLength: egtsFrameLength,
  open: (connection) => new EgtsSession(connection),
};

interface Confirmation {
  record: EgtsRecord;
  status: number;
}

class EgtsSession implements TrackerSession {
  private nextPacketId = 0;
  private nextRecordNumber = 0;
  /** The terminal was refused: it is not looked up again (its connection closes after this packet). */
  private refused = false;

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
    try {
      if (packet.packetType !== PT_APPDATA && packet.packetType !== PT_SIGNED_APPDATA) throw new TruncatedFrameError('unknown packet type');
      // A signed packet starts with SIGL and the signature, which terminals leave empty in practice.
      const data = packet.packetType === PT_SIGNED_APPDATA ? packet.body.subarray(2 + packet.body.readUInt16LE(0)) : packet.body;
      records = parseEgtsRecords(data);
    } catch (error) {
      if (!(error instanceof TruncatedFrameError || error instanceof RangeError)) throw error;
      return this.respond(packet.packetId, EGTS_PC.INC_DATAFORM);
    }

    const confirmations: Confirmation[] = [];
    const positions: TrackerRecord[] = [];
    let authResult: number | null = null;
    for (const record of records) {
      if (record.serviceType === AUTH_SERVICE) {
        const identity = record.subrecords.find((s) => s.type === SR_TERM_IDENTITY);
        if (identity && !connection.identified && !this.refused) authResult = await this.authenticate(identity.data);
        confirmations.push({ record, status: EGTS_PC.OK });
      } else if (record.serviceType === TELEDATA_SERVICE) {
        // Terminals that skip the AUTH service name themselves by the records' object id (OID).
        if (!connection.identified && !this.refused && record.objectId !== null) this.refused = !(await connection.identify([String(record.objectId)]));
        if (!connection.identified) {
          confirmations.push({ record, status: EGTS_PC.AUTH_DENIED });
          continue;
        }
        try {
          const position = decodeTeledata(record);
          if (position) positions.push(position);
          confirmations.push({ record, status: EGTS_PC.OK });
        } catch (error) {
          if (!(error instanceof TruncatedFrameError)) throw error;
          confirmations.push({ record, status: EGTS_PC.INC_DATAFORM });
        }
      } else {
        // Commands, firmware and other services: confirmed, Lokator does not use them.
        confirmations.push({ record, status: EGTS_PC.OK });
      }
    }
    if (positions.length > 0) await connection.store(positions);
    this.respond(packet.packetId, EGTS_PC.OK, confirmations);
    if (authResult !== null) this.sendResultCode(authResult);
    if (authResult === EGTS_PC.AUTH_DENIED || confirmations.some((c) => c.status === EGTS_PC.AUTH_DENIED)) connection.close('unknown terminal');
  }

  /** The IMEI when the terminal sends one, else its terminal id (TID), is the device key. */
  private async authenticate(data: Buffer): Promise<number> {
    let identity;
    try {
      identity = decodeTermIdentity(data);
    } catch (error) {
      if (error instanceof TruncatedFrameError) return EGTS_PC.INC_DATAFORM;
      throw error;
    }
    const keys = [...new Set([identity.imei, String(identity.terminalId)].filter((key): key is string => key !== null))];
    if (await this.connection.identify(keys)) return EGTS_PC.OK;
    this.refused = true;
    return EGTS_PC.AUTH_DENIED;
  }

  /** EGTS_SR_RESULT_CODE in an AUTH_SERVICE record: the outcome of the authentication. */
  private sendResultCode(result: number): void {
    const record = buildEgtsRecord(this.nextRecordNumber++, AUTH_SERVICE, [{ type: SR_RESULT_CODE, data: Buffer.from([result]) }]);
    this.connection.send(buildEgtsPacket(this.nextPacketId++, PT_APPDATA, record));
  }
}
