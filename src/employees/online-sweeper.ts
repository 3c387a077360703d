import type { FastifyBaseLogger } from 'fastify';
import type { EmployeeService } from './employee-service.js';

/**
 * Turns employees offline (isOnline true → false) once no fix arrived for ONLINE_TIMEOUT: every
 * `seenGranularityMs` it asks `EmployeePresence.sweepOffline`. Several servers may run it at once;
 * each flip is rechecked under the employee's row lock, so it happens once.
 */
export class OnlineSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly employees: EmployeeService,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = Math.max(1000, employees.presence.seenGranularityMs),
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.employees.presence
        .sweepOffline()
        .then((flipped) => {
          if (flipped > 0) this.log.debug({ flipped }, 'employees went offline');
        })
        .catch((error: unknown) => this.log.warn({ err: error }, 'presence sweep failed; retrying at the next round'))
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
