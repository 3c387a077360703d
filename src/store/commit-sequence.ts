declare const brand: unique symbol;

/**
 * A commit's place in the sequence of a database's commits: SQLite's are numbered as they are made
 * (WalSync.committed), and the durability channel announces the highest one on disk
 * (DurableCommits), so that whatever answers a sender, on any thread, waits for exactly the commit
 * that holds its data. Branded, so that no other count passes for one.
 */
export type CommitSequence = number & { readonly [brand]: 'CommitSequence' };

/** A commit already on disk when it returned (PostgreSQL, SQLite in memory): nothing to wait for. */
export const DURABLE_ON_RETURN = 0 as CommitSequence;

/** The commit numbered `n` (the sync thread's counters and thread messages carry plain numbers). */
export const commitSequence = (n: number): CommitSequence => n as CommitSequence;
