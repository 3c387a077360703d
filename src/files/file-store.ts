/**
 * Where the bytes of form files live: one small interface, a folder under DATA_DIR by default
 * (disk-file-store.ts) or an S3-compatible bucket (s3-file-store.ts). Keys are made by the files
 * module (`<account>/<random>`); the database row says whose a key is.
 */
export interface FileStore {
  /** Which store it is, for the start-up log: `disk` or `s3`. */
  readonly kind: 'disk' | 's3';
  /** Stores the bytes durably under the key before resolving. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes under the key, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the key's bytes; a key with none is no error. */
  delete(key: string): Promise<void>;
}
