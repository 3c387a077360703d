import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe } from '../../api';
import { formatDateTime } from '../../i18n/format';
import { t, untranslated } from '../../i18n/i18n';
import { useSessionInfo } from '../../session';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { Field } from '../../ui/field';
import { formErrors, NO_ERRORS, type FormErrors } from '../../ui/form-errors';
import { ErrorAlert, LoadFailure, StatusLine } from '../../ui/messages';
import { GROUPS, TOKENS, type ApiToken, type GroupName, type Role } from './people-model';
import { roleName, RoleSelect, ScopeField, scopeOf, scopeText } from './role-fields';

/**
 * Settings → API tokens, for admins: each integration's named token with its role, groups and last
 * use; a new token's value is shown once, with a Copy button; revoking one refuses it from its
 * next request on.
 */
export function TokensSection() {
  const { account } = useSessionInfo();
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [groups, setGroups] = useState<GroupName[]>([]);
  const [loadFailure, setLoadFailure] = useState('');
  const [status, setStatus] = useState('');
  const [issued, setIssued] = useState<{ name: string; token: string } | null>(null);
  const load = async () => {
    setLoadFailure('');
    try {
      const [tokenList, groupList] = await Promise.all([api.get<ApiToken[]>(TOKENS), api.get<GroupName[]>(GROUPS)]);
      setTokens(tokenList);
      setGroups(groupList);
    } catch (error) {
      setLoadFailure(t('people.tokensUnread', { reason: describe(error) }));
    }
  };
  useEffect(() => void load(), []);
  const changed = async (message: string) => {
    setStatus(message);
    await load();
  };
  const when = (date: string | null) => (date ? formatDateTime(date, account.timeZone) : t('people.never'));

  return (
    <section class="people" aria-labelledby="tokens-title">
      <h2 id="tokens-title">{t('people.tokens')}</h2>
      <p class="hint">{t('people.tokensIntro')}</p>
      <LoadFailure message={loadFailure} onRetry={() => void load()} />
      {tokens && (
        <table class="people-table">
          <thead>
            <tr>
              <th scope="col">{t('people.name')}</th>
              <th scope="col">{t('people.role')}</th>
              <th scope="col">{t('people.scope')}</th>
              <th scope="col">{t('people.created')}</th>
              <th scope="col">{t('people.lastUsed')}</th>
              <th scope="col">{t('people.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.tokenID} data-token={token.name}>
                <td {...untranslated}>{token.name}</td>
                <td>{roleName(token.role)}</td>
                <td>{scopeText(token.subscriberGroupIDs, groups)}</td>
                <td>{when(token.createdDate)}</td>
                <td>{when(token.lastUsedDate)}</td>
                <td class="actions">{token.isRevoked ? <span class="muted">{t('people.revoked')}</span> : <RevokeButton token={token} onRevoked={changed} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <StatusLine message={status} class="ok" />
      {issued && <IssuedToken {...issued} />}
      <NewTokenForm
        groups={groups}
        onCreated={async (created) => {
          setIssued(created);
          await changed(t('people.tokenIssued', { name: created.name }));
        }}
      />
    </section>
  );
}

function RevokeButton({ token, onRevoked }: { token: ApiToken; onRevoked: (message: string) => Promise<void> }) {
  const revoking = useConfirmStep();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const revoke = async () => {
    setBusy(true);
    try {
      await api.delete(`${TOKENS}/${token.tokenID}`);
      revoking.end();
      await onRevoked(t('people.tokenRevoked', { name: token.name }));
    } catch (error) {
      revoking.end();
      setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {revoking.asking ? (
        <ConfirmStep
          question={t('people.confirmRevoke', { name: token.name })}
          confirm={t('people.yesRevoke')}
          cancel={t('people.keep')}
          busy={busy}
          onConfirm={() => void revoke()}
          onCancel={revoking.cancel}
        />
      ) : (
        <button type="button" class="danger" ref={revoking.askButton} onClick={revoking.ask}>
          {t('people.revoke', { name: token.name })}
        </button>
      )}
      <ErrorAlert message={failure} />
    </>
  );
}

/** The new token's value, this once, with a Copy button (selected for Ctrl+C where the clipboard is refused). */
function IssuedToken({ name, token }: { name: string; token: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token);
      setStatus(t('people.tokenCopied'));
    } catch {
      field.current?.focus();
      field.current?.select();
      setStatus(t('people.tokenNotCopied'));
    }
  };
  return (
    <div class="issued-token" role="region" aria-label={t('people.tokenValue', { name })}>
      <p class="hint">{t('people.shownOnce')}</p>
      <input ref={field} id="issued-token" readOnly value={token} aria-label={t('people.tokenValue', { name })} {...untranslated} />
      <button type="button" onClick={() => void copy()}>
        {t('people.copy')}
      </button>
      <StatusLine message={status} class="ok" />
    </div>
  );
}

function NewTokenForm({ groups, onCreated }: { groups: GroupName[]; onCreated: (created: { name: string; token: string }) => Promise<void> }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('dispatcher');
  const [scope, setScope] = useState<number[]>([]);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      const created = await api.post<ApiToken & { token: string }>(TOKENS, { name: name.trim(), role, subscriberGroupIDs: scopeOf(scope) });
      setName('');
      setScope([]);
      await onCreated({ name: created.name, token: created.token });
    } catch (error) {
      setErrors(formErrors(error, ['name', 'subscriberGroupIDs']));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="person-form" onSubmit={submit} aria-labelledby="new-token-title" noValidate>
      <h3 id="new-token-title">{t('people.issueToken')}</h3>
      <Field id="new-token-name" label={t('people.tokenName')} hint={t('people.tokenNameHint')} error={errors.fields.name}>
        {(control) => <input {...control} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <RoleSelect id="new-token-role" value={role} onChange={setRole} />
      <ScopeField id="new-token-scope" groups={groups} value={scope} onChange={setScope} />
      <ErrorAlert message={errors.message} />
      <button type="submit" disabled={busy}>
        {t('people.issue')}
      </button>
    </form>
  );
}
