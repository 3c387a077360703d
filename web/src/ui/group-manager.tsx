import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { ConfirmStep, useConfirmStep } from './confirm';
import { Field } from './field';
import { ErrorAlert } from './messages';
import { formErrors, NO_ERRORS, type FormErrors } from './form-errors';
import { t } from '../i18n/i18n';
import './group-manager.css';

/** A group as the manager shows it: zone groups and employee groups alike. */
export interface Group {
  id: number;
  name: string;
  /** What it holds, in words ("3 zones"). */
  members: string;
}

interface Props {
  /** The heading: "Zone groups", "Employee groups". */
  title: string;
  /** The groups' route (POST to it; PATCH and DELETE to `<path>/<id>`). */
  path: string;
  /** The id field of a created group in the answer (`zoneGroupID`, `subscriberGroupID`). */
  idField: string;
  groups: Group[];
  onChanged: (message: string, createdID?: number) => Promise<void>;
}

/** Creating, renaming and deleting groups; the server keeps a group that still has members (409), and says so. */
export function GroupManager({ title, path, idField, groups, onChanged }: Props) {
  const titleId = `${idField}-groups-title`;
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      const created = await api.post<Record<string, unknown> & { name: string }>(path, { name: name.trim() });
      setName('');
      await onChanged(t('groups.created', { name: created.name }), Number(created[idField]));
    } catch (error) {
      setErrors(formErrors(error, ['name']));
    } finally {
      setBusy(false);
    }
  };

  const sorted = [...groups].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="group-manager" role="region" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {sorted.length === 0 && <p class="muted">{t('groups.none')}</p>}
      <ul>
        {sorted.map((group) => (
          <GroupRow key={group.id} group={group} path={path} onChanged={onChanged} />
        ))}
      </ul>
      <form onSubmit={create} class="new-group" noValidate>
        <Field id={`new-${idField}`} label={t('groups.newName')} error={errors.fields.name}>
          {(control) => <input {...control} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <ErrorAlert message={errors.message} />
        <button type="submit" disabled={busy}>
          {t('groups.create')}
        </button>
      </form>
    </div>
  );
}

function GroupRow({ group, path, onChanged }: { group: Group; path: string; onChanged: (message: string) => Promise<void> }) {
  const [renaming, setRenaming] = useState(false);
  const deleting = useConfirmStep();
  const [name, setName] = useState(group.name);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (renaming) nameInput.current?.focus();
  }, [renaming]);

  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      const message = await action();
      setRenaming(false);
      deleting.end();
      await onChanged(message);
    } catch (error) {
      setErrors(formErrors(error, ['name']));
    } finally {
      setBusy(false);
    }
  };

  const rename = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api.patch(`${path}/${group.id}`, { name: name.trim() });
      return t('groups.renamed', { name: name.trim() });
    });
  };

  // The server's answer (409 for a group that still has members) is shown under the group.
  const remove = () =>
    run(async () => {
      await api.delete(`${path}/${group.id}`);
      return t('groups.deleted', { name: group.name });
    }).finally(deleting.end);

  const startRenaming = () => {
    setErrors(NO_ERRORS);
    deleting.end();
    setRenaming(true);
  };
  const cancelRenaming = () => {
    setRenaming(false);
    setName(group.name);
    setErrors(NO_ERRORS);
  };
  const askDelete = () => {
    setErrors(NO_ERRORS);
    deleting.ask();
  };

  return (
    <li class="group-row">
      {renaming ? (
        <form onSubmit={rename} noValidate>
          <Field id={`group-${path.split('/').pop()}-${group.id}`} label={t('groups.nameOf', { name: group.name })} error={errors.fields.name}>
            {(control) => <input {...control} ref={nameInput} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <button type="submit" disabled={busy}>
            {t('groups.saveName')}
          </button>{' '}
          <button type="button" class="secondary" onClick={cancelRenaming}>
            {t('common.cancel')}
          </button>
        </form>
      ) : (
        <div class="group-line">
          <span>
            {group.name} <span class="muted">({group.members})</span>
          </span>
          <span class="group-actions">
            <button type="button" class="link" aria-label={t('groups.renameGroup', { name: group.name })} onClick={startRenaming}>
              {t('groups.rename')}
            </button>
            <button type="button" class="link danger-link" aria-label={t('groups.deleteGroup', { name: group.name })} ref={deleting.askButton} onClick={askDelete}>
              {t('common.delete')}
            </button>
          </span>
        </div>
      )}
      {deleting.asking && (
        <ConfirmStep
          question={t('groups.confirmDelete', { name: group.name })}
          confirm={t('groups.yesDelete')}
          cancel={t('groups.keep')}
          focus="confirm"
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={deleting.cancel}
        />
      )}
      <ErrorAlert message={errors.message} />
    </li>
  );
}
