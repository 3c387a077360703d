import {
  decodeTeltonikaImei,
  decodeTeltonikaPacket,
  isTeltonikaHandshake,
  teltonikaAck,
  teltonikaCrcMatches,
  TeltonikaFormatError,
} from './teltonika-codec.js';
import type { TrackerConnection, TrackerSession } from '../tracker-protocol.js';

const ACCEPT = Buffer.from([0x01]);
const REFUSE = Buffer.from([0x00]);

/** A Teltonika connection's dialogue: the IMEI handshake, then AVL packets acknowledged with their record count. */
export class TeltonikaSession implements TrackerSession {
  constructor(private readonly connection: TrackerConnection) {}

  async handle(frame: Buffer): Promise<void> {
    const { connection } = this;
    if (isTeltonikaHandshake(frame)) {
      if (connection.identified) return connection.close('a second handshake');
      if (await connection.identify([decodeTeltonikaImei(frame)])) connection.send(ACCEPT);
      else {
        connection.send(REFUSE);
        connection.close('unknown terminal');
      }
      return;
    }
    if (!connection.identified) return connection.close('data before the handshake');
    if (!teltonikaCrcMatches(frame)) {
      // Zero accepted records: the tracker keeps the packet and sends it again.
      connection.warn('bad CRC');
      connection.send(teltonikaAck(0));
      return;
    }
    let packet;
    try {
      packet = decodeTeltonikaPacket(frame);
    } catch (error) {
      if (error instanceof TeltonikaFormatError) return connection.close(error.message);
      throw error;
    }
    await connection.store(packet.records);
    connection.send(teltonikaAck(packet.records.length));
  }
}
