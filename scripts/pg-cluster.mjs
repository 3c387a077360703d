// A throwaway PostgreSQL cluster for test and benchmark runs: initdb + pg_ctl in a temp folder on a
// free loopback port, removed again by stop(). Shared by scripts/test.mjs and bench/zones.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder of `initdb` and `pg_ctl`: on the PATH, else the newest under /usr/lib/postgresql; null when absent. */
export function findPostgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath.replace(/\/initdb$/, '');
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
 * `settings` are extra `-c` options (the test run passes `fsync=off`). Resolves to `{url, stop()}`
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
  const as = (command, commandArgs) =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...commandArgs]] : [join(bin, command), commandArgs];
  const [initCmd, initArgs] = as('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  if (run(initCmd, initArgs) !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { error: 'initdb failed' };
  }
  const extra = settings.map((s) => ` -c ${s}`).join('');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${extra} -c max_connections=200`;
  const [ctlCmd, ctlArgs] = as('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  if (run(ctlCmd, ctlArgs) !== 0) return { error: `pg_ctl start failed (see ${join(dir, 'log')})` };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      const [stopCmd, stopArgs] = as('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
      run(stopCmd, stopArgs);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
