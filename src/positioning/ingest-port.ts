import type { CommitSequence } from '../store/commit-sequence.js';
import type { Fix } from './fix.js';

/**
 * Which path fixes came in by: the `source` label of lokator_fixes_ingested_total (`api`, `app`
 * for the employee's app, `tracker` for the TCP listeners, an HTTP protocol's name such as `osmand`).
 */
export type FixSource = string;

/**
 * What one device request, tracker frame or API batch brings: fixes stored together or not at
 * all. Its sender is named one of two ways:
 * - by its account, each fix naming its subscriber (a terminal that logged in, an API batch);
 *   `unknown` makes the error for fixes whose subscriber the account does not have (default:
 *   UnknownDevice);
 * - by the device key it was sent with (a phone on the OsmAnd port): the key's owner is found in
 *   the employees' cache and checked in the transaction, as the cache may be stale on this server.
 */
export type IngestFrame =
  | { source: FixSource; accountId: number; fixes: Fix[]; unknown?: (subscriberIds: ReadonlySet<number>) => Error }
  | { source: FixSource; deviceKey: string; fix: Omit<Fix, 'subscriberId'> };

/**
 * The one way fixes enter positioning (DESIGN: every device path feeds one ingest port): the
 * device listeners, on their threads or not, and the ingestion route. Group commit: what arrives
 * while a transaction runs goes into the next one (docs/developers/ingest-queue.md).
 */
export interface IngestPort {
  /**
   * Stores the frame's fixes, in arrival order, in the next group transaction. Resolves as soon as
   * their commit is visible, with its place in the sequence of commits: the sender is answered
   * only once that commit is durable (`durable(commit)` on this thread, `durabilityChannel` on
   * another), so that an acknowledged fix is never lost. Rejects, nothing of the frame written,
   * when its sender is unknown or its transaction failed.
   */
  submit(frame: IngestFrame): Promise<CommitSequence>;
  /** Resolves once commit `commit` is on disk; rejects if it never will be (a failed sync). */
  durable(commit: CommitSequence): Promise<void>;
  /**
   * The BroadcastChannel on which the database announces the commits on disk (DurableCommits),
   * for a thread that answers senders itself; null where a commit is durable once it returns.
   */
  readonly durabilityChannel: string | null;
}

/**
 * How many fixes wait where on their way from a device to a commit: the bounds of the ingest
 * path's queues, each measured on bench:trackers and bench:devices.
 */
export const ingestBounds = {
  /**
   * The tracker thread hands what it decoded in a turn of its event loop to the main thread at
   * the end of the turn, or at once past this many packed numbers (about 300 fixes).
   */
  trackerHandOverNumbers: 4096,
  /**
   * Fixes of the tracker listeners submitted and not yet committed, at most (a frame's are never
   * split): the rest wait packed (about 100 bytes a fix), not as objects in the ingest queue.
   */
  trackerFixesSubmitted: 8192,
  /** Fixes in one group transaction, at most: it stays short and its statements small (a bigger frame goes alone). */
  groupFixes: 10_000,
} as const;
