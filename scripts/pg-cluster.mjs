// A throwaway PostgreSQL cluster for test and benchmark runs: initdb + pg_ctl in a temp folder on a
// free loopback port, removed again by stop(). Shared by scripts/test.mjs and bench/zones.ts.
// startReplica adds a streaming replica of such a cluster (pg_basebackup -R, a second server).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The folder of `initdb`, `pg_ctl` and `pg_basebackup`: where the `initdb` on the PATH really is (a
 * link on the PATH may name only a few of them), else the newest under /usr/lib/postgresql; null when absent.
 */
export function findPostgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return dirname(realpathSync(onPath));
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : null;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function run(command, commandArgs) {
  return spawnSync(command, commandArgs, { stdio: 'ignore' }).status ?? 1;
}

/**
 * initdb + pg_ctl start in a temp folder; as root, through the `postgres` user (initdb refuses root).
 * `settings` are extra `-c` options (the test run passes `fsync=off`). Resolves to `{url, port, stop()}`
 * or to `{error}` saying why no cluster could start.
 */
export async function startCluster(bin, settings = []) {
  const asRoot = process.getuid?.() === 0;
  if (asRoot && spawnSync('id', ['-u', 'postgres']).status !== 0) {
    return { error: 'running as root and there is no `postgres` user to run PostgreSQL as' };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lokator-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = join(dir, 'data');
  const port = await freePort();
  const [initCmd, initArgs] = as(bin, 'initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  if (run(initCmd, initArgs) !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { error: 'initdb failed' };
  }
  const started = serve(bin, dir, dataDir, port, settings);
  return started.error ? started : { ...started, port };
}

/**
 * A streaming replica of a cluster startCluster made: `pg_basebackup -R` copies it into a second
 * folder (with standby.signal and the primary's address), and a second server runs it on another
 * loopback port, read-only, replaying what the primary writes. Resolves to `{url, stop()}` or `{error}`.
 */
export async function startReplica(bin, primary, settings = []) {
  const dir = mkdtempSync(join(tmpdir(), 'lokator-pg-replica-'));
  chmodSync(dir, 0o777);
  const dataDir = join(dir, 'data');
  const [backupCmd, backupArgs] = as(bin, 'pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
  if (run(backupCmd, backupArgs) !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { error: 'pg_basebackup failed' };
  }
  return serve(bin, dir, dataDir, await freePort(), settings);
}

/** A command run as the `postgres` user when we are root (PostgreSQL refuses to run as root). */
function as(bin, command, commandArgs) {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...commandArgs]] : [join(bin, command), commandArgs];
}

/** pg_ctl start of `dataDir` on 127.0.0.1:`port`; stop() stops it at once and removes `dir`. */
function serve(bin, dir, dataDir, port, settings) {
  const extra = settings.map((s) => ` -c ${s}`).join('');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${extra} -c max_connections=400`;
  const [ctlCmd, ctlArgs] = as(bin, 'pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  if (run(ctlCmd, ctlArgs) !== 0) return { error: `pg_ctl start failed (see ${join(dir, 'log')})` };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** CPU seconds the server has used so far, its ended backends included (the postmaster reaps them). */
    cpuSeconds() {
      const pid = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
      return processCpuSeconds(pid, true);
    },
    stop() {
      const [stopCmd, stopArgs] = as(bin, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
      run(stopCmd, stopArgs);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * CPU seconds of a process from /proc (Linux): its own user and system time, and with `children` also
 * that of the children it has waited for. 0 where /proc cannot tell.
 */
export function processCpuSeconds(pid, children) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime is the 14th field.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    const [utime, stime, cutime, cstime] = fields.slice(11, 15);
    return (utime + stime + (children ? cutime + cstime : 0)) / 100;
  } catch {
    return 0;
  }
}
