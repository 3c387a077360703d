import type { FastifyBaseLogger } from 'fastify';
import type { EmployeePresence } from './employee-presence.js';

/**
 * Turns employees offline (isOnline true → false) once no fix arrived for ONLINE_TIMEOUT: every
 * `seenGranularityMs` it asks `EmployeePresence.sweepOffline`. Several servers may run it at once;
 * each flip is rechecked under the employee's row lock, so it happens once.
 */
export class OnlineSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly presence: Pick<EmployeePresence, 'sweepOffline' | 'seenGranularityMs'>,
    private readonly intervalMs = Math.max(1000, presence.seenGranularityMs),
  ) {}

  start(log: FastifyBaseLogger): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.presence
        .sweepOffline()
        .then((flipped) => {
          if (flipped > 0) log.debug({ flipped }, 'employees went offline');
        })
        .catch((error: unknown) => log.warn({ err: error }, 'presence sweep failed; retrying at the next round'))
        .finally(() => {
          this.running = null;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the rounds and waits for one in progress to commit. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
