/**
 * What the app keeps on the phone in IndexedDB: the changes not yet sent (the outbox, in the
 * order the employee made them) and the last task list, so the app opens without a network.
 */

const DATABASE = 'lokator-mobile';
const OUTBOX = 'outbox';
const SAVED = 'saved';

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(OUTBOX, { keyPath: 'seq', autoIncrement: true });
      request.result.createObjectStore(SAVED);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open'));
  });
  return opening;
}

async function run<T>(store: string, mode: IDBTransactionMode, work: (objects: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(store, mode);
    const request = work(transaction.objectStore(store));
    // Resolved once the transaction is committed, not when the request succeeds: a write is then on the phone.
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** A file the form carries, uploaded before the form is sent; `fileID` once the server has it. */
export interface PendingFile {
  externalID: string;
  blob: Blob;
  name: string;
  idempotencyKey: string;
  fileID?: string;
}

interface PendingBase {
  seq?: number;
  taskID: number;
  /** Makes a repeated send (a lost answer) one change on the server. */
  idempotencyKey: string;
  /** When the employee acted, which the server keeps rather than the time of sending. */
  actedAt: string;
}

export type PendingChange =
  | (PendingBase & { kind: 'status'; status: number; comment: string | null })
  | (PendingBase & { kind: 'form'; values: { externalID: string; value: string | null }[]; files: PendingFile[] });

export async function queueChange(change: PendingChange): Promise<void> {
  await run(OUTBOX, 'readwrite', (objects) => objects.add(change));
}

/** The changes waiting, oldest first. */
export async function pendingChanges(): Promise<PendingChange[]> {
  return run(OUTBOX, 'readonly', (objects) => objects.getAll() as IDBRequest<PendingChange[]>);
}

export async function updateChange(change: PendingChange): Promise<void> {
  await run(OUTBOX, 'readwrite', (objects) => objects.put(change));
}

export async function removeChange(seq: number): Promise<void> {
  await run(OUTBOX, 'readwrite', (objects) => objects.delete(seq));
}

export async function saveValue(name: string, value: unknown): Promise<void> {
  await run(SAVED, 'readwrite', (objects) => objects.put(value, name));
}

export async function savedValue<T>(name: string): Promise<T | undefined> {
  return run(SAVED, 'readonly', (objects) => objects.get(name) as IDBRequest<T | undefined>);
}

/** Forgets everything of the signed-out key. */
export async function clearPhone(): Promise<void> {
  await run(OUTBOX, 'readwrite', (objects) => objects.clear());
  await run(SAVED, 'readwrite', (objects) => objects.clear());
}
