const WINDOW_MS = 60_000;
/** Senders remembered at most; past this, those with no upload in the last minute are forgotten. */
const MAX_SENDERS = 10_000;

/**
 * Uploads per device key and minute (FILES_UPLOADS_PER_MINUTE), in this server's memory: a
 * sliding window of each sender's last uploads. A phone emptying its offline queue fits in it;
 * a leaked key used to fill the store does not.
 */
export class UploadThrottle {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts one upload of `sender`; 0 when it may go on, else the seconds until it may. */
  take(sender: string): number {
    const now = this.clock();
    const times = (this.recent.get(sender) ?? []).filter((t) => t > now - WINDOW_MS);
    if (times.length >= this.perMinute) {
      this.recent.set(sender, times);
      return Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
    }
    times.push(now);
    if (!this.recent.has(sender) && this.recent.size >= MAX_SENDERS) this.sweep(now);
    this.recent.set(sender, times);
    return 0;
  }

  private sweep(now: number): void {
    for (const [sender, times] of this.recent) if (times.every((t) => t <= now - WINDOW_MS)) this.recent.delete(sender);
    if (this.recent.size >= MAX_SENDERS) this.recent.clear();
  }
}
