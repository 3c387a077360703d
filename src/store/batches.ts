/** Rows removed by a run of batches, and in how many transactions. */
export interface BatchCount {
  rows: number;
  batches: number;
}

export const NO_ROWS: BatchCount = { rows: 0, batches: 0 };

export const addCounts = (a: BatchCount, b: BatchCount): BatchCount => ({ rows: a.rows + b.rows, batches: a.batches + b.batches });

/** Lets whatever waits on the event loop (a request, the ingest queue's next commit) run. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs `batch`, which removes at most `limit` rows in a transaction of its own and says how many,
 * until one removes fewer (or `stopped()` says to stop: a server shutting down), yielding to the
 * event loop between two. Big removals (retention) thus never hold a table or SQLite's one
 * connection for longer than one small batch takes.
 */
export async function inBatches(batch: () => Promise<number>, limit: number, stopped: () => boolean = () => false): Promise<BatchCount> {
  const count = { rows: 0, batches: 0 };
  while (!stopped()) {
    const removed = await batch();
    count.batches += 1;
    count.rows += removed;
    if (removed < limit) break;
    await yieldToEventLoop();
  }
  return count;
}
