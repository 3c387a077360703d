import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../store/database.js';
import { readFromReplica } from '../store/replica.js';

/** Whose requests these are, for what is counted per user: the token's, or the signed-in user's. */
export function principalKey(request: FastifyRequest): string {
  const { account, tokenID, userID } = request.principal;
  return tokenID !== null ? `${account.id}:token ${tokenID}` : `${account.id}:user ${userID}`;
}

const READS = new Set(['GET', 'HEAD']);
/** Past this many writers remembered, those whose window has passed are forgotten. */
const PRUNE_AT = 10_000;

/**
 * GET requests of /v6/api read from the replica (DATABASE_REPLICA_URL), except those of a user
 * (an API token's user, a workspace session's) who wrote less than `readYourWritesMs` ago: they
 * read from the primary, so a client sees its own write in the next read. Remembered per server:
 * behind a load balancer, a read that reaches another server may miss a write made there up to
 * DATABASE_REPLICA_MAX_LAG before (docs/operators/postgresql.md, "Read replicas").
 */
export function registerReplicaReads(api: FastifyInstance, database: Database): void {
  const { replica } = database;
  if (!replica) return;
  const lastWrite = new Map<string, number>();
  const writer = principalKey;

  api.addHook('onResponse', (request, _reply, done) => {
    if (!READS.has(request.method) && request.principal) {
      const now = Date.now();
      if (lastWrite.size >= PRUNE_AT) {
        for (const [key, at] of lastWrite) if (now - at >= replica.readYourWritesMs) lastWrite.delete(key);
      }
      lastWrite.set(writer(request), now);
    }
    done();
  });

  // A callback hook, so that the handler runs inside the replica's scope (an async hook's scope would end with it).
  api.addHook('preHandler', (request, _reply, done) => {
    if (!READS.has(request.method)) return done();
    const wroteAt = lastWrite.get(writer(request));
    if (wroteAt !== undefined && Date.now() - wroteAt < replica.readYourWritesMs) return done();
    readFromReplica(done);
  });
}
