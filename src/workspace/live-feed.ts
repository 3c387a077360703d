import type { Account } from '../accounts/accounts.js';
import type { AlertFeed, AlertState } from '../alerts/alerts.js';
import type { Fix } from '../positioning/positioning.js';
import type { LiveFixes } from '../positioning/positioning.js';
import { formatDateTime } from '../http/datetime.js';
import type { Location } from '../positioning/positioning.js';

/** One open live connection of the workspace: it is sent the positions of its account. */
export interface LiveListener {
  send(positions: LivePosition[]): void;
  /** The account's newest alert id and unhandled count, at join and whenever either changes. */
  alerts(state: AlertState): void;
}

/** A location's fields (interface 2.1); a position pushed straight from a batch has no id yet. */
export type LivePosition = Omit<Location, 'locationID'> & { locationID?: number };

/** How often every open map is sent every employee's latest fix again, whatever this process saw. */
export const LIVE_RESYNC_MS = 10_000;
/**
 * How often each account with open streams has its alerts looked at: a new alert reaches the
 * workspace within this and a read, from whichever server fired it (one indexed read each).
 */
export const ALERT_POLL_MS = 1_000;

/**
 * Live positions for the workspace map. Batches committed in this process are pushed at once;
 * every LIVE_RESYNC_MS each account with open maps is sent its latest fixes from the database,
 * which covers fixes that other servers took in (several servers behind one PostgreSQL).
 */
export class LiveFeed {
  private readonly listeners = new Map<number, Set<LiveListener>>();
  private readonly accounts = new Map<number, Account>();
  private timer: NodeJS.Timeout | null = null;
  private alertTimer: NodeJS.Timeout | null = null;
  /** What each account's listeners were last told of its alerts. */
  private readonly alertStates = new Map<number, AlertState>();
  private polling = false;
  private readonly stopListening: () => void;

  constructor(
    private readonly locations: LiveFixes,
    private readonly alertFeed: AlertFeed,
    private readonly resyncMs = LIVE_RESYNC_MS,
    private readonly alertPollMs = ALERT_POLL_MS,
  ) {
    this.stopListening = locations.onCommitted((account, fixes) => this.committed(account, fixes));
  }

  /** Adds a listener and sends it the latest fix of each employee; returns the way to leave. */
  async join(account: Account, listener: LiveListener): Promise<() => void> {
    let set = this.listeners.get(account.id);
    if (!set) this.listeners.set(account.id, (set = new Set()));
    set.add(listener);
    this.accounts.set(account.id, account);
    this.timer ??= setInterval(() => void this.resync(), this.resyncMs).unref();
    this.alertTimer ??= setInterval(() => void this.pollAlerts(), this.alertPollMs).unref();
    const leave = () => {
      set.delete(listener);
      if (set.size === 0) {
        this.listeners.delete(account.id);
        this.accounts.delete(account.id);
        this.alertStates.delete(account.id);
      }
      if (this.listeners.size === 0) this.stopTimers();
    };
    try {
      listener.send(await this.locations.latestOfEach(account, undefined));
      listener.alerts(this.alertStates.get(account.id) ?? (await this.alertFeed.stateOf(account.id)));
    } catch (error) {
      leave();
      throw error;
    }
    return leave;
  }

  close(): void {
    this.stopListening();
    this.stopTimers();
    this.listeners.clear();
    this.alertStates.clear();
  }

  private stopTimers(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.alertTimer) clearInterval(this.alertTimer);
    this.timer = null;
    this.alertTimer = null;
  }

  /** Tells each account's listeners of alerts made or handled since the last look. */
  private async pollAlerts(): Promise<void> {
    // A slow database must not pile up rounds.
    if (this.polling) return;
    this.polling = true;
    try {
      for (const accountId of [...this.listeners.keys()]) {
        try {
          const state = await this.alertFeed.stateOf(accountId);
          const set = this.listeners.get(accountId);
          if (!set) continue;
          const told = this.alertStates.get(accountId);
          this.alertStates.set(accountId, state);
          if (told && told.latestAlertID === state.latestAlertID && told.unhandled === state.unhandled) continue;
          for (const listener of set) listener.alerts(state);
        } catch {
          // The next round looks again.
        }
      }
    } finally {
      this.polling = false;
    }
  }

  private committed(account: Account, fixes: readonly Fix[]): void {
    const set = this.listeners.get(account.id);
    if (!set) return;
    const newest = new Map<number, Fix>();
    for (const fix of fixes) {
      if (!fix.isValid) continue;
      const seen = newest.get(fix.subscriberId);
      if (!seen || fix.locationDateMs >= seen.locationDateMs) newest.set(fix.subscriberId, fix);
    }
    if (newest.size === 0) return;
    const positions = [...newest.values()].map((fix) => toPosition(fix, account.timeZone));
    for (const listener of set) listener.send(positions);
  }

  private async resync(): Promise<void> {
    for (const [accountId, set] of this.listeners) {
      const account = this.accounts.get(accountId);
      if (!account) continue;
      try {
        const positions = await this.locations.latestOfEach(account, undefined);
        for (const listener of set) listener.send(positions);
      } catch {
        // The next round tries again; a map is only briefly stale.
      }
    }
  }
}

function toPosition(fix: Fix, timeZone: string): LivePosition {
  return {
    locationDate: formatDateTime(fix.locationDateMs, timeZone),
    subscriberID: fix.subscriberId,
    isValid: fix.isValid,
    longitude: fix.longitude,
    latitude: fix.latitude,
    angle: fix.angle,
    velocity: fix.velocityKmh,
  };
}
