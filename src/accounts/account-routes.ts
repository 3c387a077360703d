import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { invalidField, missingField } from '../http/errors.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { ACCOUNT_LOCALES, type Account, type AccountService } from './account-service.js';
import { canonicalTimeZone } from './account-zone.js';

const tags = ['Account management'];
const Locale = Type.Union([Type.Literal(ACCOUNT_LOCALES[0]), Type.Literal(ACCOUNT_LOCALES[1])], {
  description: 'the account’s language: its reports, e-mails and texts, and the workspace’s default',
});
const AccountView = Type.Object({
  accountID: Type.Integer(),
  name: Type.String(),
  timeZone: Type.String({ description: 'IANA time zone: the account’s days, windows and every date-time without an offset' }),
  locale: Locale,
  settingsConfirmed: Type.Boolean({ description: 'false until the zone and language are first set here; the workspace asks for them at sign-in' }),
  twoFactorRequired: Type.Boolean({ description: 'every workspace user must sign in with a second factor (TOTP); one without is led to set it up at sign-in' }),
});
const accountExample = { accountID: 1, name: 'Rapid Couriers', timeZone: 'Europe/Moscow', locale: 'en' as const, settingsConfirmed: true, twoFactorRequired: false };
const AccountPatch = withExamples(
  Type.Object({
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone such as Europe/Moscow' })),
    locale: Type.Optional(Locale),
    twoFactorRequired: Type.Optional(Type.Boolean({ description: 'takes effect at each user’s next sign-in' })),
  }),
  { timeZone: 'Europe/Moscow', locale: 'ru' },
  { twoFactorRequired: true },
);

function view(account: Account) {
  return {
    accountID: account.id,
    name: account.name,
    timeZone: account.timeZone,
    locale: account.locale,
    settingsConfirmed: account.settingsConfirmed,
    twoFactorRequired: account.settings.security?.twoFactorRequired === true,
  };
}

/**
 * The account's own name, time zone and language (CONTRACT §7), read and changed by the account
 * itself: the workspace's Settings, and its question at the first sign-in.
 */
export function accountRoutes(accounts: AccountService) {
  return async (api: Api) => {
    const path = '/accountManagement/account';

    api.get(
      path,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'This account’s name, time zone and language',
          description:
            'The account the token belongs to. Its time zone reads every date-time sent without an offset and writes every date-time answered; ' +
            'its language is that of reports, e-mails and texts (API error messages stay English).',
          response: { 200: described(withExamples(AccountView, accountExample), 'the account'), 401: ErrorBody },
        },
      },
      async (request) => view(request.principal.account),
    );

    api.patch(
      path,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Change this account’s name, time zone or language',
          description:
            'Fields left out stay. `twoFactorRequired` makes every user sign in with a second factor from their next sign-in. A new time zone cuts days, hours and rule windows from the moment it is saved; statistics already stored keep ' +
            'the hours they were cut in (see Time zones in the docs).',
          body: AccountPatch,
          response: { 204: NoContent, 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request, reply) => {
        const { name, timeZone, locale, twoFactorRequired } = request.body;
        const trimmed = name?.trim();
        if (trimmed === '') throw missingField('name');
        const zone = timeZone === undefined ? undefined : canonicalTimeZone(timeZone);
        if (zone === null) throw invalidField('timeZone', 'must be an IANA time zone such as Europe/Moscow');
        // A body with only the second-factor setting is no answer to the first sign-in's question of zone and language.
        if (twoFactorRequired === undefined || trimmed !== undefined || zone !== undefined || locale !== undefined) {
          await accounts.changeProfile(request.principal.account.id, {
            ...(trimmed === undefined ? {} : { name: trimmed }),
            ...(zone === undefined ? {} : { timeZone: zone }),
            ...(locale === undefined ? {} : { locale }),
          });
        }
        if (twoFactorRequired !== undefined) await accounts.changeSettings(request.principal.account.id, { security: { twoFactorRequired } });
        return reply.code(204).send(null);
      },
    );
  };
}
