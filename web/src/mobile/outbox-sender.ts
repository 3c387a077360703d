import { KeyRefused, Refused, sendForm, sendStatus, uploadFile } from './device-api';
import { pendingChanges, removeChange, updateChange, type PendingChange } from './phone-store';

/** The longest wait between tries while the server cannot be reached. */
const MAX_BACKOFF_MS = 60_000;

export interface SenderEvents {
  /** The number of changes still waiting, after every change. */
  waiting(count: number): void;
  /** The server refused a change for good (a rule, a task gone): the app says so and drops it. */
  refused(change: PendingChange, message: string): void;
  /** The key was refused: the app signs out. */
  keyRefused(): void;
  /** A change reached the server. */
  sent(change: PendingChange): void;
}

/**
 * Sends the queued changes in the order they were made, one at a time: a later change never
 * overtakes an earlier one of the same task. Runs when asked (a new change, the `online` event,
 * the app opening) and, while the server is unreachable, again after a growing pause.
 */
export function createOutboxSender(key: string, events: SenderEvents) {
  let running: Promise<void> | null = null;
  let again = false;
  let backoffMs = 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  async function sendOne(change: PendingChange): Promise<void> {
    if (change.kind === 'status') {
      await sendStatus(key, change.taskID, { status: change.status, comment: change.comment }, change.idempotencyKey, change.actedAt);
      return;
    }
    const values = [...change.values];
    for (const file of change.files) {
      if (file.fileID === undefined) {
        file.fileID = await uploadFile(key, change.taskID, file.blob, file.name, file.idempotencyKey, change.actedAt);
        // Kept at once: a form that fails later does not upload its picture again.
        await updateChange(change);
      }
      values.push({ externalID: file.externalID, value: file.fileID });
    }
    await sendForm(key, change.taskID, values, change.idempotencyKey, change.actedAt);
  }

  async function drain(): Promise<void> {
    let queue = await pendingChanges();
    events.waiting(queue.length);
    while (queue.length > 0 && !stopped) {
      const change = queue[0]!;
      try {
        await sendOne(change);
        await removeChange(change.seq!);
        events.sent(change);
      } catch (error) {
        if (error instanceof KeyRefused) {
          events.keyRefused();
          return;
        }
        if (!(error instanceof Refused)) throw error;
        await removeChange(change.seq!);
        events.refused(change, error.message);
      }
      backoffMs = 1000;
      queue = await pendingChanges();
      events.waiting(queue.length);
    }
  }

  function schedule(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), backoffMs);
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  }

  async function flush(): Promise<void> {
    if (stopped) return;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await drain();
        } catch {
          // Offline or the server down: the change stays first in line for the next try.
          if (!stopped) schedule();
          return;
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  const onOnline = () => {
    backoffMs = 1000;
    void flush();
  };
  window.addEventListener('online', onOnline);

  return {
    flush,
    stop(): void {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', onOnline);
    },
  };
}
