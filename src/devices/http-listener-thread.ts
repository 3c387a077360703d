import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { clientErrorHandler } from '../http/conventions.js';
import { ApiError, toEnvelope } from '../http/errors.js';
import { deadlineOptions } from '../http/request-limits.js';
import { DurableCommits } from '../store/wal-sync.js';
import type { CommitSequence } from '../store/commit-sequence.js';
import type { FromHttpThread, HttpThreadData, ToHttpThread } from './http-listener-messages.js';

/**
 * An HTTP protocol listener's HTTP side, on a thread of its own (see http-listener.ts): it reads
 * requests (the deadline, the body limit), hands each one's method, address, URL and body to the
 * main thread, and writes the answer the main thread sends back. Requests the protocol cannot
 * start on (other methods, bodies too large, malformed HTTP) are answered here. A stored fix's 200
 * comes back as soon as its commit is visible and is held here until the database's durability
 * channel says that commit is on disk.
 */

const BODY_LIMIT_BYTES = 64 * 1024;
/** While closing, connections that went idle after `close()` began are looked for this often. */
const REAP_INTERVAL_MS = 100;

const port = parentPort!;
const { requestTimeoutMs, durabilityChannel } = workerData as HttpThreadData;
const durable = durabilityChannel === null ? null : new DurableCommits(durabilityChannel);
const post = (message: FromHttpThread) => port.postMessage(message);
/** Requests handed over, waiting for their answers. */
const waiting = new Map<number, ServerResponse>();
let nextId = 0;
let closing = false;
/** Requests read in this turn of the event loop, handed over together once its I/O is done. */
let batch: string[] = [];
const handOver = () => {
  post({ type: 'requests', fields: batch });
  batch = [];
};

const server = createServer(deadlineOptions(requestTimeoutMs), (request, response) => {
  take(request, response).catch((error: unknown) => {
    if (!(error instanceof ApiError)) post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    const apiError = error instanceof ApiError ? error : new ApiError('INTERNAL_SERVER_ERROR', 'internal server error');
    answer(response, apiError.status, JSON.stringify(toEnvelope(apiError)), { ...apiError.headers });
  });
});
server.on('clientError', clientErrorHandler);

async function take(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const method = request.method ?? '';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    request.resume();
    throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed; send GET or POST`, undefined, { allow: 'GET, POST' });
  }
  // Bodies are read for POST only; a GET's parameters are in its URL.
  const body = method === 'POST' ? await readBody(request) : (request.resume(), '');
  const contentType = method === 'POST' ? (request.headers['content-type'] ?? '') : '';
  const id = nextId++;
  waiting.set(id, response);
  response.once('close', () => waiting.delete(id));
  if (batch.length === 0) setImmediate(handOver);
  batch.push(String(id), method, request.socket.remoteAddress ?? '', request.url ?? '/', contentType, body);
}

function answer(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (response.headersSent || response.destroyed) return;
  // During shutdown the connection ends with this answer, so closing does not wait for the client to hang up.
  if (closing) headers.connection = 'close';
  if (body !== '') headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(body));
  response.writeHead(status, headers);
  response.end(body);
}

function answerWaiting(id: number, status: number, body: string, headers?: Record<string, string>): void {
  const response = waiting.get(id);
  if (!response) return;
  waiting.delete(id);
  answer(response, status, body, headers);
}

/** 200s for stored fixes, sent once their commit is on disk. */
function answerStored(ids: number[], commit: CommitSequence): void {
  if (durable === null || durable.isDurable(commit)) {
    for (const id of ids) answerWaiting(id, 200, '');
    return;
  }
  durable.after(commit).then(
    () => {
      for (const id of ids) answerWaiting(id, 200, '');
    },
    (error: unknown) => {
      post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
      const body = JSON.stringify(toEnvelope(new ApiError('INTERNAL_SERVER_ERROR', 'internal server error')));
      for (const id of ids) answerWaiting(id, 500, body);
    },
  );
}

port.on('message', (message: ToHttpThread) => {
  switch (message.type) {
    case 'answers':
      if (message.ok.length > 0) answerStored(message.ok, message.commit);
      for (const [id, status, body, headers] of message.others) answerWaiting(id, status, body, headers);
      return;
    case 'listen':
      server.once('error', (error) => post({ type: 'listen-failed', message: error.message }));
      server.listen(message.port, message.host, () => post({ type: 'listening', address: server.address() as AddressInfo }));
      return;
    case 'close': {
      closing = true;
      // A keep-alive connection whose request is in flight goes idle only once it is answered
      // (after its commit is on disk), later than close() looks for idle connections.
      const reaper = setInterval(() => server.closeIdleConnections(), REAP_INTERVAL_MS);
      const closed = () => {
        clearInterval(reaper);
        post({ type: 'closed' });
      };
      if (server.listening) server.close(closed);
      else closed();
      return;
    }
  }
});

/** The body as text, refused with 413 past the limit (announced or sent). */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', 'request body is too large', undefined, { connection: 'close' });
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) {
      request.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    request.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > BODY_LIMIT_BYTES) {
        request.removeAllListeners('data');
        request.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks, length).toString('utf8')));
    request.on('error', reject);
  });
}
