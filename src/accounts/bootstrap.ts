import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountService } from './account-service.js';

/**
 * The first start (CONTRACT §6): when the database has no account, create one with an API token
 * (LOKATOR_BOOTSTRAP_TOKEN's value when set) and the workspace user `admin`, and print them once.
 */
export async function bootstrapFirstAccount(
  accounts: Pick<AccountService, 'hasAnyAccount' | 'createAccount'>,
  config: { LOKATOR_BOOTSTRAP_TOKEN?: string; LOKATOR_BOOTSTRAP_PASSWORD?: string; LOKATOR_BOOTSTRAP_TIME_ZONE: string },
  log: FastifyBaseLogger,
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<void> {
  if (await accounts.hasAnyAccount()) return;
  const password = config.LOKATOR_BOOTSTRAP_PASSWORD ?? randomBytes(12).toString('base64url');
  const created = await accounts.createAccount({
    name: 'Default account',
    timeZone: config.LOKATOR_BOOTSTRAP_TIME_ZONE,
    login: 'admin',
    password,
    ...(config.LOKATOR_BOOTSTRAP_TOKEN ? { token: config.LOKATOR_BOOTSTRAP_TOKEN } : {}),
  });
  log.info({ accountID: created.account.id }, 'created the first account');
  if (!config.LOKATOR_BOOTSTRAP_TOKEN || !config.LOKATOR_BOOTSTRAP_PASSWORD) {
    // Shown once: only hashes are stored.
    print(
      [
        '',
        '  Lokator: first start, an account was created.',
        config.LOKATOR_BOOTSTRAP_TOKEN ? '' : `  API token (shown once):  ${created.token}`,
        config.LOKATOR_BOOTSTRAP_PASSWORD ? '' : `  Workspace login:         admin / ${password}`,
        '',
      ]
        .filter((line, i, all) => line !== '' || i === 0 || i === all.length - 1)
        .join('\n') + '\n',
    );
  }
}
