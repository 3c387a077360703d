import { AsyncLocalStorage } from 'node:async_hooks';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';

/**
 * Reads from a PostgreSQL streaming replica (DATABASE_REPLICA_URL). Code that may read from it
 * runs inside `readFromReplica` (the HTTP layer does so for GET requests of /v6/api); there,
 * each statement outside a transaction that only reads goes to the replica while the replica is
 * up and close enough behind the primary. Everything else goes to the primary: writes,
 * transactions (their BEGIN decides), every statement outside such a scope, and every read of
 * the scope after it wrote something (a GET that makes a missing row on first use reads it back).
 */
interface ReadScope {
  wrote: boolean;
}
const scope = new AsyncLocalStorage<ReadScope>();

export function readFromReplica<T>(fn: () => T): T {
  return scope.run({ wrote: false }, fn);
}

/** Statements a replica can answer: a plain SELECT (or WITH … SELECT) that locks and changes nothing. */
export function isPlainRead(text: string): boolean {
  // A leading comment (a statement marked PREPARED) says nothing of what it does.
  if (!/^\s*(\/\*.*?\*\/\s*)?(select|with)\b/i.test(text)) return false;
  return !/\b(insert|update|delete|merge|for\s+(update|share|no\s+key\s+update|key\s+share)|nextval|setval|pg_advisory\w*|pg_try_advisory\w*|pg_notify)\b/i.test(text);
}

export interface ReplicaStatus {
  /** The replica answers and was at most `maxLagMs` behind at the last probe. */
  usable: boolean;
  /** How far behind it was at the last probe (ms); null when it did not answer. */
  lagMs: number | null;
  /** Statements answered by the replica since start. */
  reads: number;
  /** Statements that failed there and were answered by the primary instead. */
  fallbacks: number;
}

export interface ReplicaOptions {
  /** DATABASE_REPLICA_MAX_LAG: further behind than this, reads go to the primary. */
  maxLagMs: number;
  /** How often the lag is measured. */
  probeMs?: number;
  poolSize: number;
}

const LSN_SAMPLES = 240;
/** SQLSTATE classes of a replica that is not there (connection, shutdown, resources): it is probed again before it is used. */
const REPLICA_DOWN = /^(08|53|57)/;

/** `16/B374D848` → a number to compare positions in the write-ahead log. */
const lsn = (text: string) => {
  const [high = '0', low = '0'] = text.split('/');
  return BigInt(`0x${high}`) * 2n ** 32n + BigInt(`0x${low}`);
};

/**
 * The primary and the replica behind one pool for Kysely. Lag is measured in time from the
 * write-ahead log: every probe notes the primary's current position with the time, and the
 * replica is as far behind as the newest of those notes its replay has passed. So a replica
 * reported `lagMs` behind holds every commit made more than `lagMs` before the probe; reads
 * of a token that wrote less than `readYourWritesMs` ago go to the primary, and that window is
 * the longest lag accepted plus two probes, so such a read never misses the write.
 */
export class ReplicaRouter implements PostgresPool {
  private readonly replica: pg.Pool;
  private readonly samples: { atMs: number; lsn: bigint }[] = [];
  private probedAt = Number.NEGATIVE_INFINITY;
  private lagMs: number | null = null;
  private reads = 0;
  private fallbacks = 0;
  private readonly timer: NodeJS.Timeout;
  private probing: Promise<void> | null = null;
  readonly probeMs: number;

  constructor(
    private readonly primary: pg.Pool,
    replicaUrl: string,
    private readonly options: ReplicaOptions,
  ) {
    this.probeMs = options.probeMs ?? 500;
    this.replica = new pg.Pool({ connectionString: replicaUrl, max: options.poolSize, connectionTimeoutMillis: 2000 });
    this.replica.on('error', () => {});
    this.timer = setInterval(() => void this.probe(), this.probeMs);
    this.timer.unref();
    void this.probe();
  }

  /** A token's reads go to the primary for this long after it wrote. */
  get readYourWritesMs(): number {
    return this.options.maxLagMs + 2 * this.probeMs;
  }

  status(): ReplicaStatus {
    return { usable: this.usable(), lagMs: this.lagMs, reads: this.reads, fallbacks: this.fallbacks };
  }

  async connect(): Promise<PostgresPoolClient> {
    const reads = scope.getStore();
    if (!reads) return this.primary.connect();
    // Kysely runs statements only (no cursors are configured): the cursor form of query() is never called.
    return new RoutedClient(this, reads) as unknown as PostgresPoolClient;
  }

  async end(): Promise<void> {
    clearInterval(this.timer);
    await this.probing;
    await Promise.all([this.primary.end(), this.replica.end()]);
  }

  /** Measured recently enough, and close enough behind. */
  usable(): boolean {
    return this.lagMs !== null && this.lagMs <= this.options.maxLagMs && Date.now() - this.probedAt <= 2 * this.probeMs;
  }

  /** One statement on the replica; on any failure it is answered by the primary instead. */
  async readOnReplica<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    let client: pg.PoolClient | null = null;
    try {
      client = await this.replica.connect();
      const result = await client.query(text, values as unknown[]);
      client.release();
      this.reads += 1;
      return result as unknown as PostgresQueryResult<R>;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const down = typeof code !== 'string' || REPLICA_DOWN.test(code);
      client?.release(down ? (error as Error) : undefined);
      if (down) this.lagMs = null;
      this.fallbacks += 1;
      return this.onPrimary(text, values);
    }
  }

  async onPrimary<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const client = await this.primary.connect();
    try {
      return (await client.query(text, values as unknown[])) as unknown as PostgresQueryResult<R>;
    } finally {
      client.release();
    }
  }

  primaryClient(): Promise<pg.PoolClient> {
    return this.primary.connect();
  }

  private probe(): Promise<void> {
    this.probing ??= this.measure().finally(() => {
      this.probing = null;
    });
    return this.probing;
  }

  private async measure(): Promise<void> {
    try {
      const atMs = Date.now();
      const primary = await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      this.samples.push({ atMs, lsn: lsn(primary.rows[0]!.lsn) });
      if (this.samples.length > LSN_SAMPLES) this.samples.shift();
      const replica = await this.replica.query<{ lsn: string | null; recovery: boolean }>(
        'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovery',
      );
      const row = replica.rows[0];
      if (!row?.recovery || row.lsn === null) throw new Error('not a streaming replica');
      const replayed = lsn(row.lsn);
      const passed = this.samples.findLast((sample) => sample.lsn <= replayed);
      this.lagMs = passed ? Date.now() - passed.atMs : Number.POSITIVE_INFINITY;
      this.probedAt = Date.now();
    } catch {
      this.lagMs = null;
    }
  }
}

/**
 * What Kysely takes as a connection inside `readFromReplica`: each plain read goes to the replica
 * (while usable); the first other statement (a BEGIN, a write) takes a primary connection, which
 * then serves everything until released, so a transaction never leaves the primary.
 */
class RoutedClient {
  private primary: pg.PoolClient | null = null;

  constructor(
    private readonly router: ReplicaRouter,
    private readonly reads: ReadScope,
  ) {}

  async query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (typeof text !== 'string') throw new Error('cursors are not routed to the replica');
    if (this.primary === null && isPlainRead(text)) {
      const replica = this.router.usable() && !this.reads.wrote;
      return replica ? this.router.readOnReplica<R>(text, values) : this.router.onPrimary<R>(text, values);
    }
    this.reads.wrote = true;
    this.primary ??= await this.router.primaryClient();
    return (await this.primary.query(text, values as unknown[])) as unknown as PostgresQueryResult<R>;
  }

  release(): void {
    this.primary?.release();
    this.primary = null;
  }
}
