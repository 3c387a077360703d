import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig, settings } from '../../src/config.js';
import { deviceConnections, deviceProtocols, devicePorts } from '../../src/devices/protocols.js';
import { deviceKeyProblem, devicePasswordProblem } from '../../src/employees/device-identity.js';
import { latinWords } from '../workspace/latin-words.js';

/**
 * The one list of device protocols (src/devices/protocols.ts) and what follows from it: each
 * protocol's port setting, the form of its keys and passwords, what the workspace is told. A new
 * protocol is checked here by being in the list; its own test replays its captured frames.
 */
describe('the device protocols', () => {
  it('each has its own name, port setting and default port', () => {
    const columns = { name: deviceProtocols.map((p) => p.name), 'port setting': deviceProtocols.map((p) => p.port.setting), 'default port': deviceProtocols.map((p) => p.port.default) };
    for (const [column, values] of Object.entries(columns)) assert.equal(new Set<unknown>(values).size, values.length, `a ${column} repeated: ${values.join(', ')}`);
  });

  it('each port is a setting of config.ts with its default and doc, 0 switching its listener off', () => {
    for (const { port } of deviceProtocols) {
      const setting = settings[port.setting];
      assert.equal(setting.default, port.default, port.setting);
      assert.equal(setting.doc, port.doc);
      assert.match(port.doc, /0 switches it off/);
    }
    const config = loadConfig({ EGTS_PORT: '0', OSMAND_PORT: '6055' });
    assert.deepEqual(devicePorts(config), { osmand: 6055, egts: 0, wialonIps: 5039, teltonika: 5027 });
    assert.throws(() => loadConfig({ TELTONIKA_PORT: '70000' }), /TELTONIKA_PORT="70000": must be a port number 0-65535/);
  });

  it('each judges its own device keys and passwords; a key without a protocol is a phone’s', () => {
    assert.equal(deviceKeyProblem('teltonika', '356307042441013'), null);
    assert.match(deviceKeyProblem('teltonika', '2002') ?? '', /15-digit IMEI for Teltonika/);
    assert.equal(deviceKeyProblem('wialonIps', '2002'), null);
    assert.match(deviceKeyProblem('wialonIps', '20;02') ?? '', /without ";" or "#"/);
    assert.equal(deviceKeyProblem('egts', '866'), null);
    assert.match(deviceKeyProblem('egts', '0866') ?? '', /no leading zeros/);
    assert.equal(deviceKeyProblem(null, 'ivan-phone'), null);
    assert.equal(deviceKeyProblem(null, 'short'), deviceKeyProblem('osmand', 'short'));
    assert.equal(devicePasswordProblem('egts', 'secret'), null);
    assert.match(devicePasswordProblem('wialonIps', 'NA') ?? '', /nor be "NA"/);
    for (const protocol of [null, 'osmand', 'teltonika'] as const) {
      assert.equal(devicePasswordProblem(protocol, 'secret'), 'only a device whose deviceProtocol is egts or wialonIps can have a password (its login carries one)');
    }
  });

  it('tell the workspace, in the list’s order, where each reports and what its key is, in words a Russian reader reads', () => {
    const connections = deviceConnections({ TELTONIKA_PORT: 0 });
    assert.deepEqual(
      connections.map(({ protocol, label, transport, port, portSetting, password }) => ({ protocol, label, transport, port, portSetting, password })),
      [
        { protocol: 'osmand', label: 'OsmAnd', transport: 'http', port: 5055, portSetting: 'OSMAND_PORT', password: false },
        { protocol: 'egts', label: 'EGTS', transport: 'tcp', port: 5162, portSetting: 'EGTS_PORT', password: true },
        { protocol: 'wialonIps', label: 'Wialon IPS', transport: 'tcp', port: 5039, portSetting: 'WIALON_IPS_PORT', password: true },
        { protocol: 'teltonika', label: 'Teltonika', transport: 'tcp', port: 0, portSetting: 'TELTONIKA_PORT', password: false },
      ],
    );
    for (const { protocol, keyHint } of connections) {
      assert.ok(keyHint.en.length > 0 && keyHint.ru.length > 0, protocol);
      assert.deepEqual(latinWords(keyHint.ru), [], `${protocol}: Latin words in the Russian hint`);
    }
  });
});
