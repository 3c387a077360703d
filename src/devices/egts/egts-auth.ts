import { ByteReader } from '../byte-reader.js';

/**
 * The subrecords of EGTS_AUTH_SERVICE besides the terminal's identity (GOST 33472 / order 285):
 * a retranslator's EGTS_SR_DISPATCHER_IDENTITY, the EGTS_SR_AUTH_PARAMS this server sends to ask
 * for credentials, and the EGTS_SR_AUTH_INFO that answers it.
 */

/** EGTS_SR_DISPATCHER_IDENTITY: DT (dispatcher type), DID (dispatcher id), DSCR (description, not used). */
export function decodeDispatcherIdentity(data: Buffer): { dispatcherId: number } {
  const reader = new ByteReader(data);
  reader.u8(); // DT
  return { dispatcherId: reader.u32le() };
}

/** EGTS_SR_AUTH_INFO: UNM (user name) and UPSW (password), each up to 32 bytes ended by a zero byte; then SS, not used. */
export function decodeAuthInfo(data: Buffer): { userName: string; password: string } {
  const userEnd = data.indexOf(0);
  if (userEnd < 0) return { userName: data.toString('latin1'), password: '' };
  const passwordEnd = data.indexOf(0, userEnd + 1);
  return { userName: data.toString('latin1', 0, userEnd), password: data.toString('latin1', userEnd + 1, passwordEnd < 0 ? data.length : passwordEnd) };
}

/**
 * EGTS_SR_AUTH_PARAMS with no flag set: no encryption, no key, no server sequence. It tells the
 * terminal or retranslator that its identity was accepted and that it must now send AUTH_INFO.
 */
export function authParamsWithoutEncryption(): Buffer {
  return Buffer.from([0]);
}
