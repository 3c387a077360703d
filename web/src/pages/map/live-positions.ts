import { useEffect, useRef, useState } from 'preact/hooks';
import type { Location } from '../../types';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** After the browser gives up on the stream (an answer that is not a stream, e.g. 401), try again this late. */
const REOPEN_MS = 5_000;

export interface LivePositions {
  /** The latest valid fix of each employee, by subscriberID. */
  positions: ReadonlyMap<number, Location>;
  status: LiveStatus;
  /** Whether the stream's first event (every employee's latest fix) has arrived. */
  loaded: boolean;
}

/**
 * The latest fixes from the server-sent `/workspace/api/live` stream. EventSource reconnects by
 * itself after a dropped connection (the server asks for 3 s); when it gives up for good,
 * `onLost` runs (a request that notices an ended session) and the stream is opened again.
 */
export function useLivePositions(onLost: () => void): LivePositions {
  const [positions, setPositions] = useState<ReadonlyMap<number, Location>>(() => new Map());
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [loaded, setLoaded] = useState(false);
  const lost = useRef(onLost);
  lost.current = onLost;

  useEffect(() => {
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
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
    const open = () => {
      const stream = new EventSource('/workspace/api/live');
      source = stream;
      stream.onopen = () => setStatus('live');
      stream.addEventListener('positions', (event) => {
        pending.push(...(JSON.parse((event as MessageEvent<string>).data) as Location[]));
        frame ||= requestAnimationFrame(flush);
        setStatus('live');
      });
      stream.onerror = () => {
        setStatus('reconnecting');
        if (stream.readyState !== EventSource.CLOSED) return;
        stream.close();
        reopen = setTimeout(() => {
          lost.current();
          open();
        }, REOPEN_MS);
      };
    };
    open();
    return () => {
      clearTimeout(reopen);
      cancelAnimationFrame(frame);
      source?.close();
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
