import type { AddressInfo } from 'node:net';
import type { CommitSequence } from '../store/commit-sequence.js';

/**
 * What an HTTP protocol's listener thread (http-listener-thread.ts) and its main-thread side
 * (http-listener.ts) tell each other. Requests and answers travel in batches, one message per turn
 * of the event loop, as flat arrays of strings and numbers: copying those between threads costs a
 * fraction of what copying an object per request did.
 */

/** What the HTTP thread starts with. */
export interface HttpThreadData {
  requestTimeoutMs: number;
  /** The ingest port's durability channel (IngestPort.durabilityChannel), or null. */
  durabilityChannel: string | null;
}

/** Each request of a `requests` message takes this many strings: id, method, client address, URL, content type, body. */
export const REQUEST_FIELDS = 6;

/** An answer other than an empty 200: id, status, body, headers. */
export type OtherAnswer = [id: number, status: number, body: string, headers: Record<string, string>];

export type FromHttpThread =
  | { type: 'requests'; fields: string[] }
  | { type: 'listening'; address: AddressInfo }
  | { type: 'listen-failed'; message: string }
  | { type: 'failed'; message: string }
  | { type: 'closed' };

export type ToHttpThread =
  /**
   * `ok`: the ids answered with an empty 200 (nearly all of them), once `commit` (the latest of
   * their commits) is on disk; `others`, at once.
   */
  | { type: 'answers'; ok: number[]; commit: CommitSequence; others: OtherAnswer[] }
  | { type: 'listen'; port: number; host: string }
  | { type: 'close' };
