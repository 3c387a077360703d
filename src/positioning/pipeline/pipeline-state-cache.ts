import type { SubscriberState } from './subscriber-pipeline.js';

/** Subscribers whose parsed state is kept; past this the least recently used goes. */
const MAX_CACHED_STATES = 20_000;

/**
 * The pipeline states this process last wrote, parsed, each with the very text it was written
 * as. A batch still reads each state's text in its transaction (another server, or a transaction
 * that failed after writing, may have left a different one); when that text is the one this
 * process wrote, the object that produced it is handed back instead of parsing the text again
 * (parsing was a tenth of the main thread's time with a fleet of distinct vehicles, issue 13).
 *
 * An entry is taken out when handed over, since the pipeline changes the object as it runs: if
 * the batch fails before writing it back, nothing stale is left behind.
 */
export class PipelineStateCache {
  private readonly entries = new Map<number, { text: string; state: SubscriberState }>();

  /** The state stored as `text` for this subscriber, the caller's to change. */
  take(subscriberId: number, text: string): SubscriberState {
    const entry = this.entries.get(subscriberId);
    if (entry) {
      this.entries.delete(subscriberId);
      if (entry.text === text) return entry.state;
    }
    return JSON.parse(text) as SubscriberState;
  }

  /** `state` was just written as `text` (in a transaction that may still fail: then the stored text differs). */
  put(subscriberId: number, text: string, state: SubscriberState): void {
    this.entries.delete(subscriberId);
    if (this.entries.size >= MAX_CACHED_STATES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(subscriberId, { text, state });
  }
}
