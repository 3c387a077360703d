import type { Tx } from '../../store/database.js';
import type { PipelineFix, TrackRecord, TrackSettings } from './pipeline-types.js';
import type { FixZones } from './zone-visit-detector.js';

/** CONTRACT §2: signals fire only for fixes newer than the subscriber's latest fix stored before their batch minus this. */
export const LIVE_WINDOW_MS = 5 * 60_000;

/**
 * The signal detectors' part of a subscriber's pipeline state: kept with the rest of the state and
 * handed back to them, never read by the pipeline itself (its shape is theirs).
 */
export type DetectorState = object;

/** What the signal detectors need to know of a batch. */
export interface SignalBatch {
  accountId: number;
  timeZone: string;
  receivedAt: number;
  trackSettings: TrackSettings;
}

/** One subscriber's run through the signal detectors: each valid fix, in processing order. */
export interface FixSignals {
  /**
   * `live`: the fix may fire signals (CONTRACT §2: new in this batch, newer than the latest fix
   * stored before its batch or frame minus five minutes, and not older than SIGNAL_MAX_AGE; never
   * a replayed one). `ended`: the track this fix ended;
   * `stopAtMs`: the fix where the open track's current stop began, if it stands. `zones`: the
   * enabled zones containing the fix, as the pipeline looked them up (null when the account has
   * none, or the pipeline was given no zone index).
   */
  step(fix: PipelineFix, live: boolean, ended: TrackRecord | null, stopAtMs: number | null, zones?: FixZones | null): void;
}

/** The signal detectors of one batch, in its transaction. */
export interface BatchSignals {
  /**
   * A subscriber's run over `holder`'s state: null when no rule applies to them. `before` is the
   * state before a replay (null when not replaying), whose facts of what was sent carry over.
   */
  watch(subscriberId: number, holder: { signals?: DetectorState }, before: { signals?: DetectorState } | null): FixSignals | null;
  /** Writes what fired to the outbox. */
  flush(tx: Tx): Promise<void>;
}

/**
 * The pipeline's hook for signals (DESIGN: rules' signals are written to the outbox in the batch's
 * transaction). `begin` answers null when the account has no signal rules: nothing else is done.
 */
export interface PipelineSignals {
  begin(tx: Tx, batch: SignalBatch, subscriberIds: number[]): Promise<BatchSignals | null>;
}
