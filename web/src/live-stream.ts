/**
 * The one `/workspace/api/live` stream of the tab, shared by what reads it (the map's positions,
 * the header's alerts): each reader connects with handlers by event type, and one EventSource
 * serves them all. A reader that joins an open stream is first given what the stream said so far
 * (every employee's newest position, the latest alert state), as a stream of its own would have.
 *
 * A lost stream (an error, an answer that is not a stream such as a 401 or a 503, or silence) is
 * closed and opened again here, for every reader, after a wait that doubles with each failure,
 * with a little jitter so the tabs of a whole office do not all knock at once when the server
 * comes back. Readers are told when it is lost; its next event tells them it is back.
 */

export type LiveHandlers = Partial<Record<'positions' | 'alerts', (data: string) => void>> & {
  /** The stream failed; it is tried again by itself. */
  lost?: () => void;
};

export interface LiveConnection {
  close(): void;
}

/** The first retry after a lost stream waits this long; each failure after it doubles the wait, up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/**
 * The server sends every latest fix again every 10 s: a stream silent for this long is dead though
 * still open (a proxy or a network that dropped it without a word), and is opened anew.
 */
const SILENCE_MS = 35_000;

let source: EventSource | null = null;
const readers = new Set<LiveHandlers>();
/** What the open stream said so far: the newest position of each employee, and the latest alerts event. */
let positions: Map<number, unknown> | null = null;
let alerts: string | null = null;
let failures = 0;
let retry: ReturnType<typeof setTimeout> | undefined;
let silence: ReturnType<typeof setTimeout> | undefined;

function heard(): void {
  failures = 0;
  clearTimeout(silence);
  silence = setTimeout(lose, SILENCE_MS);
}

function open(): void {
  const stream = new EventSource('/workspace/api/live');
  source = stream;
  positions = null;
  alerts = null;
  clearTimeout(silence);
  silence = setTimeout(lose, SILENCE_MS);
  stream.addEventListener('positions', (event) => {
    if (stream !== source) return;
    heard();
    const data = (event as MessageEvent<string>).data;
    positions ??= new Map();
    for (const fix of JSON.parse(data) as { subscriberID: number }[]) positions.set(fix.subscriberID, fix);
    for (const reader of [...readers]) reader.positions?.(data);
  });
  stream.addEventListener('alerts', (event) => {
    if (stream !== source) return;
    heard();
    alerts = (event as MessageEvent<string>).data;
    for (const reader of [...readers]) reader.alerts?.(alerts);
  });
  // The browser's own reconnection would retry at the server's fixed interval, unseen: it is reopened here instead.
  stream.onerror = () => {
    if (stream === source) lose();
  };
}

function lose(): void {
  source?.close();
  source = null;
  clearTimeout(silence);
  clearTimeout(retry);
  const waitMs = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures) * (0.8 + Math.random() * 0.4);
  failures += 1;
  retry = setTimeout(() => {
    retry = undefined;
    open();
  }, waitMs);
  for (const reader of [...readers]) reader.lost?.();
}

export function connectLive(handlers: LiveHandlers): LiveConnection {
  const joining = source !== null;
  readers.add(handlers);
  if (readers.size === 1 && source === null && retry === undefined) open();
  if (joining) {
    // Told after the caller has its connection in hand, as a new stream's first events would be.
    queueMicrotask(() => {
      if (!readers.has(handlers)) return;
      if (positions) handlers.positions?.(JSON.stringify([...positions.values()]));
      if (alerts !== null) handlers.alerts?.(alerts);
    });
  }
  return {
    close() {
      if (!readers.delete(handlers) || readers.size > 0) return;
      source?.close();
      source = null;
      clearTimeout(retry);
      clearTimeout(silence);
      retry = undefined;
      failures = 0;
    },
  };
}
