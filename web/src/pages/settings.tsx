import { useSessionInfo } from '../session';
import { PasswordForm } from './password';
import { RetentionForm } from './retention';
import { SigningSecret } from './signing-secret';
import './deliveries.css';

/** The signed-in account, and the secret its webhooks are signed with (CONTRACT §4). */
export function SettingsPage() {
  const session = useSessionInfo();
  const { account } = session;
  return (
    <section class="settings-page" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>

      <h2 id="account-title">Account</h2>
      <dl class="account" aria-labelledby="account-title">
        <dt>Name</dt>
        <dd>{account.name}</dd>
        <dt>Time zone</dt>
        <dd>{account.timeZone}</dd>
        <dt>SMS option</dt>
        <dd>{account.smsEnabled ? 'On: event rules may send SMS' : 'Off: event rules cannot send SMS (the operator turns it on)'}</dd>
        <dt>Signed in as</dt>
        <dd>{session.login}</dd>
      </dl>

      <PasswordForm />

      <RetentionForm />

      <h2 id="webhooks-title">Webhook signing</h2>
      <SigningSecret timeZone={account.timeZone} />

      <h3>How receivers verify a call</h3>
      <p>
        Calls follow the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specification, so its libraries (for
        example <code>standardwebhooks</code> for Node.js, Python, Go, Java) verify them with this secret. Each call carries:
      </p>
      <ul>
        <li>
          <code>webhook-id</code>: the same on every retry and resend; receivers use it to ignore a call they already handled.
        </li>
        <li>
          <code>webhook-timestamp</code>: seconds since 1970; reject calls more than about five minutes old.
        </li>
        <li>
          <code>webhook-signature</code>: one or more <code>v1,&lt;base64&gt;</code> entries separated by spaces; the call is
          genuine if any one matches.
        </li>
      </ul>
      <p>To check by hand: decode the part of the secret after <code>whsec_</code> from base64, and compare (in constant time)</p>
      <pre>
        <code>base64(HMAC-SHA256(key, webhook-id + "." + webhook-timestamp + "." + raw body))</code>
      </pre>
      <p class="muted small">Verify the raw body as received, before parsing the JSON: any change to it breaks the signature.</p>
    </section>
  );
}
