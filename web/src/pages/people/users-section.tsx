import { useEffect, useState } from 'preact/hooks';
import { api, describe } from '../../api';
import { formatDateTime } from '../../i18n/format';
import { t, untranslated } from '../../i18n/i18n';
import { useSessionInfo } from '../../session';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { Field } from '../../ui/field';
import { formErrors, NO_ERRORS, type FormErrors } from '../../ui/form-errors';
import { ErrorAlert, LoadFailure, StatusLine } from '../../ui/messages';
import './people.css';
import { GROUPS, USERS, type GroupName, type Role, type User } from './people-model';
import { roleName, RoleSelect, ScopeField, scopeOf, scopeText } from './role-fields';

/**
 * Settings → Users, for admins: the account's users with their role, groups and last sign-in; an
 * admin adds one with a temporary password (changed at the first sign-in), changes a role, groups
 * or whether the user may sign in, and removes one. The server keeps the last active admin.
 */
export function UsersSection() {
  const [users, setUsers] = useState<User[] | null>(null);
  const [groups, setGroups] = useState<GroupName[]>([]);
  const [loadFailure, setLoadFailure] = useState('');
  const [status, setStatus] = useState('');
  const load = async () => {
    setLoadFailure('');
    try {
      const [userList, groupList] = await Promise.all([api.get<User[]>(USERS), api.get<GroupName[]>(GROUPS)]);
      setUsers(userList);
      setGroups(groupList);
    } catch (error) {
      setLoadFailure(t('people.usersUnread', { reason: describe(error) }));
    }
  };
  useEffect(() => void load(), []);
  const changed = async (message: string) => {
    setStatus(message);
    await load();
  };

  return (
    <section class="people" aria-labelledby="users-title">
      <h2 id="users-title">{t('people.users')}</h2>
      <LoadFailure message={loadFailure} onRetry={() => void load()} />
      {users && (
        <table class="people-table">
          <thead>
            <tr>
              <th scope="col">{t('people.login')}</th>
              <th scope="col">{t('people.name')}</th>
              <th scope="col">{t('people.role')}</th>
              <th scope="col">{t('people.scope')}</th>
              <th scope="col">{t('people.lastSignIn')}</th>
              <th scope="col">{t('people.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <UserRow key={user.userID} user={user} groups={groups} onChanged={changed} />
            ))}
          </tbody>
        </table>
      )}
      <StatusLine message={status} class="ok" />
      <NewUserForm groups={groups} onCreated={changed} />
    </section>
  );
}

function UserRow({ user, groups, onChanged }: { user: User; groups: GroupName[]; onChanged: (message: string) => Promise<void> }) {
  const { account, userID } = useSessionInfo();
  const [editing, setEditing] = useState(false);
  const removing = useConfirmStep();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    setFailure('');
    try {
      await api.delete(`${USERS}/${user.userID}`);
      removing.end();
      await onChanged(t('people.userRemoved', { login: user.login }));
    } catch (error) {
      removing.end();
      setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <tr data-user={user.login}>
        <td {...untranslated}>{user.login}</td>
        <td {...untranslated}>{user.name}</td>
        <td>
          {roleName(user.role)}
          {!user.isActive && <span class="muted"> · {t('people.inactive')}</span>}
        </td>
        <td>{scopeText(user.subscriberGroupIDs, groups)}</td>
        <td>{user.lastSignInDate ? formatDateTime(user.lastSignInDate, account.timeZone) : t('people.never')}</td>
        <td class="actions">
          <button type="button" class="secondary" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {t('people.edit', { name: user.login })}
          </button>
          {user.userID !== userID &&
            (removing.asking ? (
              <ConfirmStep
                question={t('people.confirmRemove', { login: user.login })}
                confirm={t('people.yesRemove')}
                cancel={t('people.keep')}
                busy={busy}
                onConfirm={() => void remove()}
                onCancel={removing.cancel}
              />
            ) : (
              <button type="button" class="danger" ref={removing.askButton} onClick={removing.ask}>
                {t('people.remove', { name: user.login })}
              </button>
            ))}
          <ErrorAlert message={failure} />
        </td>
      </tr>
      {editing && (
        <tr class="editing">
          <td colSpan={6}>
            <EditUserForm
              user={user}
              groups={groups}
              onSaved={async (message) => {
                setEditing(false);
                await onChanged(message);
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}

function EditUserForm({ user, groups, onSaved }: { user: User; groups: GroupName[]; onSaved: (message: string) => Promise<void> }) {
  const [name, setName] = useState(user.name);
  const [role, setRole] = useState<Role>(user.role);
  const [scope, setScope] = useState<number[]>(user.subscriberGroupIDs ?? []);
  const [isActive, setActive] = useState(user.isActive);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const id = `user-${user.userID}`;
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      await api.patch(`${USERS}/${user.userID}`, { name: name.trim(), role, subscriberGroupIDs: scopeOf(scope), isActive, ...(password ? { password } : {}) });
      await onSaved(t('people.userSaved', { login: user.login }));
    } catch (error) {
      setErrors(formErrors(error, ['name', 'password', 'subscriberGroupIDs']));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="person-form" onSubmit={submit} aria-label={t('people.editTitle', { login: user.login })} noValidate>
      <Field id={`${id}-name`} label={t('people.name')} error={errors.fields.name}>
        {(control) => <input {...control} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <RoleSelect id={`${id}-role`} value={role} onChange={setRole} />
      <ScopeField id={`${id}-scope`} groups={groups} value={scope} onChange={setScope} />
      <label class="check">
        <input type="checkbox" checked={isActive} onChange={(e) => setActive(e.currentTarget.checked)} />
        {t('people.active')}
      </label>
      <Field id={`${id}-password`} label={t('people.newTemporary')} hint={t('people.newTemporaryHint')} error={errors.fields.password}>
        {(control) => <input {...control} type="password" autocomplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
      </Field>
      <ErrorAlert message={errors.message} />
      <button type="submit" disabled={busy}>
        {t('people.save')}
      </button>
    </form>
  );
}

function NewUserForm({ groups, onCreated }: { groups: GroupName[]; onCreated: (message: string) => Promise<void> }) {
  const [login, setLogin] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('dispatcher');
  const [scope, setScope] = useState<number[]>([]);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      const created = await api.post<User>(USERS, { login: login.trim(), ...(name.trim() ? { name: name.trim() } : {}), role, subscriberGroupIDs: scopeOf(scope), password });
      setLogin('');
      setName('');
      setScope([]);
      setPassword('');
      await onCreated(t('people.userAdded', { login: created.login }));
    } catch (error) {
      setErrors(formErrors(error, ['login', 'name', 'password', 'subscriberGroupIDs']));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="person-form" onSubmit={submit} aria-labelledby="new-user-title" noValidate>
      <h3 id="new-user-title">{t('people.addUser')}</h3>
      <Field id="new-user-login" label={t('people.login')} error={errors.fields.login}>
        {(control) => <input {...control} value={login} maxLength={200} autocomplete="off" onInput={(e) => setLogin(e.currentTarget.value)} />}
      </Field>
      <Field id="new-user-name" label={t('people.name')} error={errors.fields.name}>
        {(control) => <input {...control} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <RoleSelect id="new-user-role" value={role} onChange={setRole} />
      <ScopeField id="new-user-scope" groups={groups} value={scope} onChange={setScope} />
      <Field id="new-user-password" label={t('people.temporary')} hint={t('people.temporaryHint')} error={errors.fields.password}>
        {(control) => <input {...control} type="password" autocomplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
      </Field>
      <ErrorAlert message={errors.message} />
      <button type="submit" disabled={busy}>
        {t('people.add')}
      </button>
    </form>
  );
}
