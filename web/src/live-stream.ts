/**
 * The one `/workspace/api/live` stream of the tab, shared by what reads it (the map's positions,
 * the header's alerts): each reader connects with handlers by event type, and one EventSource
 * serves them all. A reader that joins an open stream is first given what the stream said so far
 * (every employee's newest position, the latest alert state), as a stream of its own would have.
 * On a failure the stream is closed and every reader told: each waits as it likes and connects
 * again, and the first to do so opens the new stream.
 */

export type LiveHandlers = Partial<Record<'positions' | 'alerts', (data: string) => void>>;

export interface LiveConnection {
  close(): void;
}

interface Reader {
  handlers: LiveHandlers;
  onError: () => void;
}

let source: EventSource | null = null;
const readers = new Set<Reader>();
/** What the open stream said so far: the newest position of each employee, and the latest alerts event. */
let positions: Map<number, unknown> | null = null;
let alerts: string | null = null;

function open(): EventSource {
  const stream = new EventSource('/workspace/api/live');
  positions = null;
  alerts = null;
  stream.addEventListener('positions', (event) => {
    const data = (event as MessageEvent<string>).data;
    positions ??= new Map();
    for (const fix of JSON.parse(data) as { subscriberID: number }[]) positions.set(fix.subscriberID, fix);
    for (const reader of [...readers]) reader.handlers.positions?.(data);
  });
  stream.addEventListener('alerts', (event) => {
    alerts = (event as MessageEvent<string>).data;
    for (const reader of [...readers]) reader.handlers.alerts?.(alerts);
  });
  // The browser's own reconnection would retry at the server's fixed interval, unseen: the readers reopen it instead.
  stream.onerror = () => {
    if (stream === source) failLive();
  };
  return stream;
}

/** Ends the stream and tells every reader it failed: after an error, or when a reader finds it silent for too long. */
export function failLive(): void {
  source?.close();
  source = null;
  const told = [...readers];
  readers.clear();
  for (const reader of told) reader.onError();
}

export function connectLive(handlers: LiveHandlers, onError: () => void): LiveConnection {
  const reader: Reader = { handlers, onError };
  const joining = source !== null;
  source ??= open();
  readers.add(reader);
  if (joining) {
    // Told after the caller has its connection in hand, as a new stream's first events would be.
    queueMicrotask(() => {
      if (!readers.has(reader)) return;
      if (positions) handlers.positions?.(JSON.stringify([...positions.values()]));
      if (alerts !== null) handlers.alerts?.(alerts);
    });
  }
  return {
    close() {
      if (!readers.delete(reader)) return;
      if (readers.size === 0 && source) {
        source.close();
        source = null;
      }
    },
  };
}
