import { t, untranslated } from '../i18n/i18n';
import { tRich } from '../i18n/rich';
import { useCan, useSessionInfo } from '../session';
import { TokensSection } from './people/tokens-section';
import { UsersSection } from './people/users-section';
import { roleName } from './people/role-fields';
import { AccountForm } from './account-form';
import { PasswordForm } from './password';
import { RetentionForm } from './retention';
import { SigningSecret } from './signing-secret';
import { TwoFactorSection } from './two-factor';
import './deliveries.css';

const code = (text: string) => <code>{text}</code>;

/**
 * The signed-in account, its users and API tokens, and the secret its webhooks are signed with
 * (CONTRACT §4); each part only for the roles that may use it (the server refuses the others).
 */
export function SettingsPage() {
  const session = useSessionInfo();
  const { account } = session;
  const isAdmin = useCan('admin');
  const canEdit = useCan('edit');
  return (
    <section class="settings-page" aria-labelledby="settings-title">
      <h1 id="settings-title">{t('settings.title')}</h1>
      {isAdmin && (
        <p>
          <a href="#/settings/audit">{t('audit.open')}</a>
        </p>
      )}

      {isAdmin && <AccountForm />}
      <dl class="account">
        {!isAdmin && (
          <>
            <dt>{t('settings.account')}</dt>
            <dd {...untranslated}>{account.name}</dd>
          </>
        )}
        <dt>{t('people.role')}</dt>
        <dd>{roleName(session.role)}</dd>
        <dt>{t('settings.smsOption')}</dt>
        <dd>{account.smsEnabled ? t('settings.smsOn') : t('settings.smsOff')}</dd>
        <dt>{t('settings.signedInAs')}</dt>
        <dd {...untranslated}>{session.login}</dd>
      </dl>

      <PasswordForm />

      <TwoFactorSection canRequire={isAdmin} />

      {isAdmin && <UsersSection />}
      {isAdmin && <TokensSection />}

      {isAdmin && <RetentionForm />}

      {canEdit && <WebhookSigning timeZone={account.timeZone} canRotate={isAdmin} />}
    </section>
  );
}

function WebhookSigning({ timeZone, canRotate }: { timeZone: string; canRotate: boolean }) {
  return (
    <>
      <h2 id="webhooks-title">{t('secret.title')}</h2>
      <SigningSecret timeZone={timeZone} canRotate={canRotate} />

      <h3>{t('secret.howTitle')}</h3>
      <p>
        {tRich('secret.howIntro', {
          spec: <a href="https://www.standardwebhooks.com/" {...untranslated}>Standard Webhooks</a>,
          library: code('standardwebhooks'),
          platforms: <span {...untranslated}>Node.js, Python, Go, Java</span>,
        })}
      </p>
      <ul>
        <li>{tRich('secret.howId', { name: code('webhook-id') })}</li>
        <li>{tRich('secret.howTimestamp', { name: code('webhook-timestamp') })}</li>
        <li>{tRich('secret.howSignature', { name: code('webhook-signature'), entry: code('v1,<base64>') })}</li>
      </ul>
      <p>{tRich('secret.byHand', { prefix: code('whsec_') })}</p>
      <pre>
        <code>base64(HMAC-SHA256(key, webhook-id + "." + webhook-timestamp + "." + raw body))</code>
      </pre>
      <p class="muted small">{t('secret.rawBody')}</p>
    </>
  );
}
