import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import type { Zone, ZoneGroup } from '../../types';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { Field } from '../../ui/field';
import { ErrorAlert } from '../../ui/messages';
import { formErrors, NO_ERRORS, type FormErrors } from './form-errors';

export const ZONE_GROUPS = '/v6/api/zoneManagement/zoneGroups';

/** Creating, renaming and deleting zone groups; the server keeps a group that still has zones (409). */
export function ZoneGroups({ groups, zones, onChanged }: { groups: ZoneGroup[]; zones: Zone[]; onChanged: (message: string) => Promise<void> }) {
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      const created = await api.post<ZoneGroup>(ZONE_GROUPS, { name: name.trim() });
      setName('');
      await onChanged(`Group “${created.name}” created.`);
    } catch (error) {
      setErrors(formErrors(error, ['name']));
    } finally {
      setBusy(false);
    }
  };

  const sorted = [...groups].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="zone-groups" role="region" aria-labelledby="zone-groups-title">
      <h2 id="zone-groups-title">Zone groups</h2>
      {sorted.length === 0 && <p class="muted">No groups yet.</p>}
      <ul>
        {sorted.map((group) => (
          <GroupRow key={group.zoneGroupID} group={group} zoneCount={zones.filter((z) => z.zoneGroupID === group.zoneGroupID).length} onChanged={onChanged} />
        ))}
      </ul>
      <form onSubmit={create} class="new-group" noValidate>
        <Field id="new-group" label="New group name" error={errors.fields.name}>
          {(control) => <input {...control} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <ErrorAlert message={errors.message} />
        <button type="submit" disabled={busy}>
          Create group
        </button>
      </form>
    </div>
  );
}

function GroupRow({ group, zoneCount, onChanged }: { group: ZoneGroup; zoneCount: number; onChanged: (message: string) => Promise<void> }) {
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
      await api.patch(`${ZONE_GROUPS}/${group.zoneGroupID}`, { name: name.trim() });
      return `Group renamed to “${name.trim()}”.`;
    });
  };

  // The server's answer (409 for a group with zones) is shown under the group.
  const remove = () =>
    run(async () => {
      await api.delete(`${ZONE_GROUPS}/${group.zoneGroupID}`);
      return `Group “${group.name}” deleted.`;
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

  const zonesText = zoneCount === 1 ? '1 zone' : `${zoneCount} zones`;
  return (
    <li class="group-row">
      {renaming ? (
        <form onSubmit={rename} noValidate>
          <Field id={`group-${group.zoneGroupID}`} label={`Name of group “${group.name}”`} error={errors.fields.name}>
            {(control) => <input {...control} ref={nameInput} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <button type="submit" disabled={busy}>
            Save name
          </button>{' '}
          <button type="button" class="secondary" onClick={cancelRenaming}>
            Cancel
          </button>
        </form>
      ) : (
        <div class="group-line">
          <span>
            {group.name} <span class="muted">({zonesText})</span>
          </span>
          <span class="group-actions">
            <button type="button" class="link" aria-label={`Rename group ${group.name}`} onClick={startRenaming}>
              Rename
            </button>
            <button type="button" class="link danger-link" aria-label={`Delete group ${group.name}`} ref={deleting.askButton} onClick={askDelete}>
              Delete
            </button>
          </span>
        </div>
      )}
      {deleting.asking && (
        <ConfirmStep
          question={`Delete group “${group.name}”?`}
          confirm="Yes, delete group"
          cancel="No, keep it"
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
