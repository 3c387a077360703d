import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The lowest port `freePort` hands out: below it are well-known services' ports. */
const LOWEST_PORT = 10_000;

/** The first port of the kernel's ephemeral range (outgoing connections' local ports, and listen(0)). */
function ephemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) ? start : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A TCP port free on loopback now, for a listener whose port must be known before it starts (a
 * server process told its ports). Taken below the kernel's ephemeral range: a port listen(0)
 * hands out comes from that range, and once the probe has closed it, any outgoing connection on
 * the machine may take it as its local port before the server listens (a restart in a test
 * failed so, EADDRINUSE, under CI's load). Outside the range only another test's listener can
 * take it, which `startProcess` survives by starting again on other ports.
 */
export async function freePort(): Promise<number> {
  const end = ephemeralStart();
  if (end - LOWEST_PORT < 1000) return anyFreePort();
  for (;;) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (end - LOWEST_PORT));
    if (await canListen(port)) return port;
  }
}

/** A port listen(0) picks, where the ephemeral range leaves no room below it. */
function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

export interface RunningProcess {
  child: ChildProcess;
  port: number;
  osmandPort: number;
  /** Everything the server printed (over its starts, if one lost a port: see startProcess). */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** How long a server process may take to answer /ready before the test gives up on it. */
const START_DEADLINE_MS = 120_000;

/** Times `startProcess` starts again on other ports when one of its own was taken meanwhile. */
const PORT_TAKEN_RETRIES = 3;

/**
 * Starts `src/main.ts` as `npm start` would, and waits until `/ready` answers 200: the API and
 * every listener take traffic. The API's and the OsmAnd listener's ports are chosen here (see
 * `freePort`); if another listener took one before the server could, it starts again on others.
 */
export async function startProcess(env: Record<string, string>): Promise<RunningProcess> {
  // What every attempt printed: a first start that lost its port may have created the account
  // and printed its token already.
  const earlier: string[] = [];
  for (let attempt = 0; ; attempt++) {
    try {
      return await startOnce(env, await freePort(), await freePort(), earlier.join(''));
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= PORT_TAKEN_RETRIES) throw error;
      earlier.push(error.output);
    }
  }
}

/** The server exited at start because a port it was given was in use. */
class PortTaken extends Error {
  constructor(readonly output: string) {
    super(`a port was taken before the server listened:\n${output}`);
  }
}

async function startOnce(env: Record<string, string>, port: number, osmandPort: number, printedBefore: string): Promise<RunningProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), OSMAND_PORT: String(osmandPort), EGTS_PORT: '0', WIALON_IPS_PORT: '0', TELTONIKA_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Generous: several test files start servers at once, each compiling the sources as it starts.
  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (child.exitCode !== null) {
      if (new RegExp(`EADDRINUSE.*:(${port}|${osmandPort})\\b`).test(output)) throw new PortTaken(output);
      throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    }
    try {
      const r = await fetch(`http://127.0.0.1:${port}/ready`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, osmandPort, output: () => printedBefore + output, exited };
}
