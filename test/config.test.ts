import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, settings } from '../src/config.js';

/** The error loadConfig throws for `env`; fails when it loads. */
function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `a ConfigError, got ${String(error)}`);
    return error.message;
  }
  assert.fail(`loaded ${JSON.stringify(Object.keys(env))} without complaint`);
}

const MARK = 'S3cr3t-Mark';

/**
 * An invalid value of each secret setting, each holding MARK where a secret would be: a password
 * too short, a token too short, URLs of the wrong scheme or that do not parse (`new URL` keeps its
 * input), with the secret as the URL's password, its user, its path or its query.
 */
const badSecrets: Record<string, string[]> = {
  LOKATOR_BOOTSTRAP_PASSWORD: [`${MARK}-12`, MARK],
  LOKATOR_BOOTSTRAP_TOKEN: [MARK, `tok-${MARK}`],
  LOKATOR_ADMIN_TOKEN: [MARK, `adm-${MARK}`],
  DATABASE_URL: [`mysql://lokator:${MARK}@db/lokator`, `postgres://lokator:${MARK}@[db/lokator`, `/var/lib/${MARK}.db`],
  SMTP_URL: [`http://mailer:${MARK}@smtp.example.com`, `smtp://mailer:${MARK}@[smtp`, `smtp//mailer:${MARK}@smtp.example.com`],
  SMS_GATEWAY_URL: [`ftp://gw:${MARK}@sms.example.com/send`, `https://sms.example.com:99999/send?key=${MARK}`, `https://[${MARK}]/`],
  MESSENGER_GATEWAY_URL: [`smtp://bot:${MARK}@chat.example.com`, `https://chat example.com/${MARK}`],
  MESSENGER2_GATEWAY_URL: [`file:///etc/${MARK}`, `http://${MARK}:pw@[::1/`],
  GEOCODER_URL: [`nominatim.example.com/?key=${MARK}`, `https://geo:${MARK}@[geo/`],
  ROUTER_URL: [`ws://router.example.com/?token=${MARK}`, `https://router:${MARK}@router.example.com:70000/`],
  MAP_TILE_URL: [`https://tiles.example.com/{z}/{x}.png?apikey=${MARK}`, `tiles://{z}/{x}/{y}?apikey=${MARK}`],
};

describe('configuration errors', () => {
  for (const [name, values] of Object.entries(badSecrets)) {
    it(`${name}: an invalid value is named with its rule, and never shown`, () => {
      for (const value of values) {
        const message = configError({ [name]: value });
        assert.match(message, new RegExp(`^  ${name} \\(value not shown\\): must `, 'm'), message);
        assert.ok(!message.includes(MARK), `${name}=${value} leaked into: ${message}`);
        assert.ok(!message.includes(value), message);
      }
    });
  }

  it('SMTP_PASSWORD is never shown, also when the SMTP settings around it are refused', () => {
    const message = configError({ SMTP_HOST: 'smtp.example.com', SMTP_USER: 'mailer', SMTP_PASSWORD: MARK, SMTP_PORT: 'twenty-five' });
    assert.match(message, /SMTP_PORT="twenty-five": must be a port number/);
    assert.match(message, /SMTP_FROM: required/);
    assert.ok(!message.includes(MARK), message);
  });

  it('every credential-like setting is marked secret, so a setting added later cannot slip through', () => {
    for (const [name, setting] of Object.entries(settings)) {
      if (/(_URL|_TOKEN|PASSWORD|SECRET|_KEY)$/.test(name)) assert.equal('secret' in setting && setting.secret, true, `${name} must be secret`);
    }
  });

  it('a value that is not a secret is shown, so a typo is easy to find', () => {
    const message = configError({ PORT: 'eighty', WEBHOOK_TIMEOUT: '10 seconds', TRUST_PROXY: 'yes' });
    assert.match(message, /PORT="eighty": must be a port number 0-65535/);
    assert.match(message, /WEBHOOK_TIMEOUT="10 seconds": must be a duration such as 5s, 5m or 2h/);
    assert.match(message, /TRUST_PROXY="yes": must be false, true, or a comma list/);
  });

  it('valid secrets load as given', () => {
    const config = loadConfig({
      DATABASE_URL: `postgresql://lokator:${MARK}@db.internal:5432/lokator`,
      LOKATOR_BOOTSTRAP_PASSWORD: 'fifteen chars!!',
      LOKATOR_ADMIN_TOKEN: 'a-token-of-16-ch',
      SMTP_URL: `smtps://mailer:${MARK}@smtp.example.com`,
      SMTP_FROM: 'Lokator <lokator@example.com>',
      MAP_TILE_URL: `https://tiles.example.com/{z}/{x}/{y}.png?apikey=${MARK}`,
    });
    assert.equal(config.databaseUrl, `postgresql://lokator:${MARK}@db.internal:5432/lokator`);
    assert.equal(config.LOKATOR_BOOTSTRAP_PASSWORD, 'fifteen chars!!');
  });

  it('TRUST_PROXY takes false, true, or addresses and CIDR ranges; refuses hop counts Fastify ignores', () => {
    assert.equal(loadConfig({}).TRUST_PROXY, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY, true);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,fd00::/8,::1,loopback' }).TRUST_PROXY, [
      '10.0.0.5',
      '192.168.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
    for (const bad of ['1', '2', '10.0.0', '10.0.0.0/33', '10.0.0.5/8/1', 'proxy.internal', '10.0.0.5,', 'TRUE']) {
      assert.match(configError({ TRUST_PROXY: bad }), /TRUST_PROXY=.*: must be false, true, or a comma list/, bad);
    }
  });

  it('npm start refuses invalid secrets with exit code 2, naming each and showing none', () => {
    const env: Record<string, string> = {
      ...process.env,
      LOKATOR_BOOTSTRAP_PASSWORD: `Pw-${MARK}`,
      LOKATOR_ADMIN_TOKEN: `t-${MARK}`,
      SMTP_URL: `smtp://mailer:${MARK}@[smtp`,
      SMS_GATEWAY_URL: `gw://user:${MARK}@sms.example.com`,
      DATABASE_URL: `mysql://lokator:${MARK}@db/lokator`,
    };
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, encoding: 'utf8' });
    assert.equal(result.status, 2, result.stderr);
    for (const name of ['LOKATOR_BOOTSTRAP_PASSWORD', 'LOKATOR_ADMIN_TOKEN', 'SMTP_URL', 'SMS_GATEWAY_URL', 'DATABASE_URL']) {
      assert.match(result.stderr, new RegExp(`${name} \\(value not shown\\): must `), result.stderr);
    }
    assert.ok(!`${result.stdout}${result.stderr}`.includes(MARK), result.stderr);
  });
});
