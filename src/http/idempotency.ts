import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../store/database.js';
import { ApiError, invalidField } from './errors.js';
import { claimKey, deleteExpiredKeys, deleteKey, deleteStaleKey, findKey, storeAnswer } from './idempotency-store.js';

const KEY_LIFETIME_MS = 24 * 3_600_000;
/** A claim whose request never finished (the connection dropped, the server died) is abandoned after this. */
const ABANDONED_AFTER_MS = 60_000;
const REPLAYED_HEADERS = ['location', 'content-type'];

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

/** Where a request's keys live: its account, and a prefix that keeps one caller's keys apart from another's. */
export type IdempotencyScope = (request: FastifyRequest) => { accountId: number; prefix: string };

/** The API's callers: a key is the account's (its tokens and users share them). */
const byAccount: IdempotencyScope = (request) => ({ accountId: request.principal.account.id, prefix: '' });

/**
 * `Idempotency-Key` on POST (CONTRACT §1): the first request with a key runs and its response is
 * kept for 24 h; a repeat gets that response again and creates nothing. A repeat that arrives
 * while the first still runs gets 409; the same key with a different request gets 400.
 */
export function registerIdempotency(app: FastifyInstance, database: Database, clock: () => number, scopeOf: IdempotencyScope = byAccount): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const sent = request.headers['idempotency-key'];
    if (sent === undefined) return;
    if (typeof sent !== 'string' || sent.length === 0 || sent.length > 255) {
      throw invalidField('Idempotency-Key', 'must be 1 to 255 characters');
    }
    const { accountId, prefix } = scopeOf(request);
    const key = `${prefix}${sent}`;
    const fingerprint = fingerprintOf(request);
    const now = clock();
    const { db } = database;

    await deleteStaleKey(db, accountId, key, now - KEY_LIFETIME_MS, now - ABANDONED_AFTER_MS);
    if (await claimKey(db, accountId, key, fingerprint, now)) {
      request.idempotencyKey = key;
      return;
    }

    const stored = await findKey(db, accountId, key);
    if (!stored) throw new ApiError('CONFLICT', 'a request with this Idempotency-Key is in progress');
    if (stored.fingerprint !== fingerprint) {
      throw invalidField('Idempotency-Key', 'was used before with a different request');
    }
    if (stored.status_code === null) throw new ApiError('CONFLICT', 'a request with this Idempotency-Key is in progress');
    return replay(reply, stored.status_code, stored.response_body, stored.response_headers);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (key === undefined) return payload;
    const { accountId } = scopeOf(request);
    if (reply.statusCode >= 500) {
      // The request may run again: a failure is not a result to replay.
      await deleteKey(database.db, accountId, key);
      return payload;
    }
    const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap((h) => (reply.hasHeader(h) ? [[h, String(reply.getHeader(h))]] : [])));
    await storeAnswer(database.db, accountId, key, {
      statusCode: reply.statusCode,
      body: typeof payload === 'string' ? payload : payload === null || payload === undefined ? '' : String(payload),
      headers: JSON.stringify(headers),
    });
    return payload;
  });
}

/**
 * Removes up to `limit` of the account's keys older than their 24 h (retention runs it hourly;
 * before, a key was removed only when the same key came again); the number removed.
 */
export async function deleteExpiredIdempotencyKeys(database: Database, accountId: number, nowMs: number, limit: number): Promise<number> {
  return deleteExpiredKeys(database.db, accountId, nowMs - KEY_LIFETIME_MS, limit);
}

function fingerprintOf(request: FastifyRequest): string {
  // An uploaded file is hashed as its bytes, not as the JSON of a Buffer.
  const body = Buffer.isBuffer(request.body) ? request.body : JSON.stringify(request.body ?? null);
  return createHash('sha256').update(`${request.method} ${request.url}\n`).update(body).digest('hex');
}

function replay(reply: FastifyReply, status: number, body: string | null, headers: string | null): FastifyReply {
  const stored = headers ? (JSON.parse(headers) as Record<string, string>) : {};
  return reply.code(status).headers(stored).header('idempotent-replayed', 'true').send(body ?? '');
}
