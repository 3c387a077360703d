import { useEffect, useRef, useState } from 'preact/hooks';
import { connectLive, failLive, type LiveConnection } from '../../live-stream';
import type { Location } from '../../types';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** The first retry after a lost stream waits this long; each failure after it doubles the wait, up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/**
 * The server sends every latest fix again every 10 s: a stream silent for this long is dead though
 * still open (a proxy or a network that dropped it without a word), and is opened anew.
 */
const SILENCE_MS = 35_000;

export interface LivePositions {
  /** The latest valid fix of each employee, by subscriberID. */
  positions: ReadonlyMap<number, Location>;
  status: LiveStatus;
  /** Whether the stream's first event (every employee's latest fix) has arrived. */
  loaded: boolean;
}

/**
 * The latest fixes from the server-sent `/workspace/api/live` stream. Its status is what the
 * stream does: "live" once positions arrive, "reconnecting" from a failure until they arrive
 * again. A lost stream (an error, an answer that is not a stream such as a 401 or a 503, or
 * silence) is closed and opened again after a wait that doubles with each failure, with a little
 * jitter so the tabs of a whole office do not all knock at once when the server comes back.
 * `onCaughtUp` runs when positions arrive after a loss (the list of employees is read again then,
 * and a request notices a session that ended meanwhile).
 */
export function useLivePositions(onCaughtUp: () => void): LivePositions {
  const [positions, setPositions] = useState<ReadonlyMap<number, Location>>(() => new Map());
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [loaded, setLoaded] = useState(false);
  const caughtUp = useRef(onCaughtUp);
  caughtUp.current = onCaughtUp;

  useEffect(() => {
    let source: LiveConnection | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let silence: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let lost = false;
    // Batches that arrive within one frame are drawn together: a fleet reporting all the time
    // sends many small batches, and each drawing redraws the map and the list.
    let pending: Location[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending;
      pending = [];
      setPositions((current) => withNewer(current, batch));
      setLoaded(true);
    };
    const listen = () => {
      clearTimeout(silence);
      // A silent stream is dead for every reader of it, not only this one.
      silence = setTimeout(failLive, SILENCE_MS);
    };
    const reopen = () => {
      source?.close();
      source = null;
      lost = true;
      setStatus('reconnecting');
      const waitMs = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures) * (0.8 + Math.random() * 0.4);
      failures += 1;
      clearTimeout(silence);
      clearTimeout(retry);
      retry = setTimeout(open, waitMs);
    };
    const open = () => {
      let stream: LiveConnection | null = null;
      const received = (data: string) => {
        if (stream !== source) return;
        pending.push(...(JSON.parse(data) as Location[]));
        frame ||= requestAnimationFrame(flush);
        listen();
        failures = 0;
        setStatus('live');
        if (lost) {
          lost = false;
          caughtUp.current();
        }
      };
      // The stream is shared with the header's alerts (live-stream.ts); a failure ends it for both.
      stream = connectLive({ positions: received }, () => {
        if (stream === source) reopen();
      });
      source = stream;
      listen();
    };
    open();
    return () => {
      clearTimeout(retry);
      clearTimeout(silence);
      cancelAnimationFrame(frame);
      source?.close();
      source = null;
    };
  }, []);

  return { positions, status, loaded };
}

/**
 * `current` with the batch's fixes that are newer than the ones held. The same map when nothing
 * changed: the stream repeats every latest fix every 10 s, and an unchanged map redraws nothing.
 */
export function withNewer(current: ReadonlyMap<number, Location>, batch: readonly Location[]): ReadonlyMap<number, Location> {
  let next: Map<number, Location> | null = null;
  for (const fix of batch) {
    if (!fix.isValid) continue;
    const held = next?.get(fix.subscriberID) ?? current.get(fix.subscriberID);
    if (held && !isNewer(fix, held)) continue;
    next ??= new Map(current);
    next.set(fix.subscriberID, fix);
  }
  return next ?? current;
}

function isNewer(fix: Location, held: Location): boolean {
  const difference = Date.parse(fix.locationDate) - Date.parse(held.locationDate);
  if (difference !== 0) return difference > 0;
  // The same moment: a fix stored again (a resync) changes nothing unless it is another point.
  return fix.latitude !== held.latitude || fix.longitude !== held.longitude || fix.velocity !== held.velocity;
}
