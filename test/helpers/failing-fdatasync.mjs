// Loaded with `--import` (NODE_OPTIONS) into a server under test, in every thread: while the file
// named by LOKATOR_TEST_FAIL_SYNC exists, fs.fdatasyncSync fails with EIO, as it does when the
// disk reports a write error. Fault injection from outside the server's code, like LD_PRELOAD: the
// write-ahead log's sync thread (src/store/wal-sync-thread.ts) calls fdatasyncSync as usual.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const trigger = process.env.LOKATOR_TEST_FAIL_SYNC;
const fdatasyncSync = fs.fdatasyncSync;
fs.fdatasyncSync = (fd) => {
  if (trigger && fs.existsSync(trigger)) {
    throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5, syscall: 'fdatasync' });
  }
  return fdatasyncSync(fd);
};
// Modules that import { fdatasyncSync } from 'node:fs' see the replacement too.
syncBuiltinESMExports();
