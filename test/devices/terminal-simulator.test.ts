import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { freePort, startProcess, type RunningProcess } from '../helpers/process.js';
import { Client, createEmployee, LOCATIONS } from '../helpers/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'terminal-simulator-token-0123456789';
const EVENTS = '/v6/api/globalPositioningManagement/events';
const TRACKS = '/v6/api/globalPositioningManagement/tracks';

/** Whether a TCP connection to the port is accepted now (one attempt). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Runs `npm run simulate:terminal -- …args` as a user would (the script itself, under tsx); resolves with its exit code and output. */
function simulate(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/terminal-simulator.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/**
 * The terminal simulator that README.md and docs/operators/trackers.md point new users to, against the real server
 * process with its three tracker listeners: a drive of each protocol comes out of the v6 routes
 * as fixes, tracks, speeding and a fuel filling (tried as a new user would).
 */
describe('the terminal simulator against a running server (SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lokator-simulator-'));
  let server: RunningProcess;
  let api: Client;
  const ports = { teltonika: 0, wialon: 0, egts: 0 };
  before(async () => {
    for (const protocol of ['teltonika', 'wialon', 'egts'] as const) ports[protocol] = await freePort();
    server = await startProcess({
      DATA_DIR: dataDir,
      LOKATOR_BOOTSTRAP_TOKEN: TOKEN,
      TELTONIKA_PORT: String(ports.teltonika),
      WIALON_IPS_PORT: String(ports.wialon),
      EGTS_PORT: String(ports.egts),
    });
    api = new Client(`http://127.0.0.1:${server.port}`, TOKEN);
    // startProcess waited for /ready: the tracker listeners, started after the API, listen by then.
    for (const [protocol, port] of Object.entries(ports)) assert.ok(await accepts(port), `${protocol} listens once /ready says so`);
  });
  after(() => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cases = [
    { protocol: 'teltonika', imei: '356307042441013', extra: [] },
    { protocol: 'wialon', imei: '356307042441014', extra: ['--version', '2.0'] },
    { protocol: 'egts', imei: '864495034643376', extra: [] },
  ] as const;
  for (const { protocol, imei, extra } of cases) {
    it(`${protocol}: a buffered 30-minute drive gives its fixes, two tracks, speeding and a 40-litre filling`, async () => {
      const subscriberID = await createEmployee(api, { name: `Truck ${protocol}`, deviceKey: imei });
      const run = await simulate([protocol, imei, '--port', String(ports[protocol]), '--buffered', '--minutes', '30', '--interval', '10', ...extra]);
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /180 of 180 records acknowledged/);

      const locations = await api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}&count=1000`);
      assert.equal(locations.status, 200, locations.text);
      assert.equal(locations.body.length, 180);
      const tracks = await api.get(`${TRACKS}?subscriberIDs=${subscriberID}`);
      assert.equal(tracks.body.length, 2, tracks.text);
      const day = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
      const events = await api.get(`${EVENTS}?subscriberIDs=${subscriberID}&startDate=${day(-3_600_000)}&finishDate=${day(60_000)}`);
      assert.equal(events.status, 200, events.text);
      const kinds = (events.body.data[0].events as { type: number; value: number }[]).map((e) => e.type);
      assert.ok(kinds.includes(4), `speed exceeded among ${kinds.join(', ')}`);
      const filling = (events.body.data[0].events as { type: number; value: number }[]).find((e) => e.type === 1);
      assert.ok(filling && filling.value >= 35 && filling.value <= 45, `a filling of about 40 litres: ${events.text}`);
    });
  }

  it('wialon: an employee with a device password refuses the simulator without it (exit 1, naming --password) and accepts it with it', async () => {
    const id = '2002';
    const subscriberID = await createEmployee(api, { name: 'Van with a password', deviceKey: id, deviceProtocol: 'wialonIps', devicePassword: 'sim-pass-1' });
    const base = ['wialon', id, '--port', String(ports.wialon), '--minutes', '0.05', '--interval', '1'];
    const refused = await simulate(base);
    assert.equal(refused.code, 1, refused.output);
    assert.match(refused.output, /refused the password .*--password/);
    const accepted = await simulate([...base, '--password', 'sim-pass-1', '--version', '2.0']);
    assert.equal(accepted.code, 0, accepted.output);
    assert.match(accepted.output, /3 of 3 records acknowledged/);
    assert.equal((await api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}&count=10`)).body.length, 3);
  });

  it('live: records dated now, one by one, each acknowledged', async () => {
    const imei = '356307042441099';
    const subscriberID = await createEmployee(api, { name: 'Live truck', deviceKey: imei });
    const run = await simulate(['teltonika', imei, '--port', String(ports.teltonika), '--minutes', '0.05', '--interval', '1']);
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /3 of 3 records acknowledged/);
    const locations = await api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}&count=10`);
    assert.equal(locations.body.length, 3);
    for (const location of locations.body as { locationDate: string }[]) assert.ok(Math.abs(Date.parse(location.locationDate) - Date.now()) < 60_000);
  });

  it('what it does not understand: the usage line and exit 2, without connecting', async () => {
    for (const args of [['teltonika'], ['bogus', '356307042441013'], ['teltonika', '356307042441013', 'extra'], ['teltonika', '356307042441013', '--interval', 'often'], ['wialon', '356307042441013', '--version', '3'], ['egts', '356307042441013', '--port', '70000']]) {
      const run = await simulate(args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.output, /^usage: npm run simulate:terminal/, args.join(' '));
    }
  });

  it('an IMEI no employee has: refused by the server, the simulator says what to do and exits 1', async () => {
    const run = await simulate(['egts', '864495034600000', '--port', String(ports.egts), '--minutes', '0.05', '--interval', '1']);
    assert.equal(run.code, 1);
    assert.match(run.output, /refused terminal 864495034600000 with result code 151 \(create an employee whose deviceKey is the IMEI\)/);
  });
});
