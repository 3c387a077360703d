import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';

/**
 * An EGTS retranslator as the API shows it: never its password (write-only, kept as a hash). The
 * password is printable ASCII of at most 31 characters: EGTS carries it in AUTH_INFO's UPSW, 32
 * bytes with the terminating zero, in no particular encoding.
 */
export const Retranslator = Type.Object({
  retranslatorID: Type.Integer(),
  dispatcherID: Type.Integer({ description: 'DID of its EGTS_SR_DISPATCHER_IDENTITY' }),
  name: Type.String(),
  createdAt: Type.String(),
});
export type Retranslator = Static<typeof Retranslator>;

export const RetranslatorWrite = withExamples(
  Type.Object({
  dispatcherID: Type.Integer({ minimum: 0, maximum: 0xffff_ffff, description: 'DID its DISPATCHER_IDENTITY names (32 bits); unique within the account' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 8, maxLength: 31, pattern: '^[\\x21-\\x7e]+$', description: 'what its AUTH_INFO sends as UPSW: 8 to 31 printable ASCII characters; never shown again' }),
  }),
  { dispatcherID: 4021, name: 'Regional monitoring centre', password: 'v7#Kq2!mZp' },
);
export type RetranslatorWrite = Static<typeof RetranslatorWrite>;

const retranslatorExample: Retranslator = { retranslatorID: 2, dispatcherID: 4021, name: 'Regional monitoring centre', createdAt: '2026-02-11T15:20:00+03:00' };
export const RetranslatorWithExample = withExamples(Retranslator, retranslatorExample);
export const RetranslatorList = withExamples(Type.Array(Retranslator), [retranslatorExample]);
