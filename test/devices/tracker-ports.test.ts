import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { egtsPacket, egtsRecord, readEgtsPacket, termIdentity } from '../../scripts/trackers/egts-encoder.js';
import { freePort, startProcess, type RunningProcess } from '../helpers/process.js';
import { Client, createEmployee, LOCATIONS } from '../helpers/server.js';
import { TrackerClient } from '../helpers/tracker-client.js';
import { teltonikaHandshake, teltonikaPacket, wialonLogin } from '../../scripts/trackers/tracker-encoders.js';

const TOKEN = 'bootstrap-token-trackers-0123456789';

/** The listeners start right after the API answers /health: connect until they are up (with a deadline). */
async function connectWhenUp(port: number): Promise<TrackerClient> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await TrackerClient.connect(port);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('npm start serves the tracker ports', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lokator-trackers-'));
  let running: RunningProcess | undefined;
  after(async () => {
    running?.child.kill('SIGTERM');
    await running?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('EGTS_PORT, WIALON_IPS_PORT and TELTONIKA_PORT each speak their protocol; fixes reach the API', async () => {
    const ports = { egts: await freePort(), wialon: await freePort(), teltonika: await freePort() };
    running = await startProcess({
      DATA_DIR: dataDir,
      LOKATOR_BOOTSTRAP_TOKEN: TOKEN,
      EGTS_PORT: String(ports.egts),
      WIALON_IPS_PORT: String(ports.wialon),
      TELTONIKA_PORT: String(ports.teltonika),
    });
    const api = new Client(`http://127.0.0.1:${running.port}`, TOKEN);
    const imei = '356307042441099';
    const subscriberID = await createEmployee(api, { name: 'Truck', deviceKey: imei });

    const teltonika = await connectWhenUp(ports.teltonika);
    await teltonika.send(Buffer.concat([teltonikaHandshake(imei), teltonikaPacket([{ timeMs: Date.now() - 60_000, latitude: 55.75, longitude: 37.61, satellites: 7, speedKmh: 12 }])]));
    assert.deepEqual(await teltonika.readBytes(5), Buffer.from([1, 0, 0, 0, 1]));
    const listed = await api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}`);
    assert.deepEqual(listed.body.map((l: any) => [l.latitude, l.longitude, l.velocity]), [[55.75, 37.61, 12]]);

    const wialon = await connectWhenUp(ports.wialon);
    await wialon.send(wialonLogin(imei));
    assert.equal(await wialon.readLine(), '#AL#1\r\n');

    const egts = await connectWhenUp(ports.egts);
    await egts.send(egtsPacket(egtsRecord({ number: 1, serviceType: 1, subrecords: [termIdentity(1, imei)] }), { packetId: 1 }));
    assert.deepEqual(readEgtsPacket(await egts.readEgtsPacket()).response, { packetId: 1, result: 0 });
    for (const client of [teltonika, wialon, egts]) client.close();
  });
});
