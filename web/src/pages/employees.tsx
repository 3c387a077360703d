import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useCan } from '../session';
import { api, describe, query } from '../api';
import { navigate } from '../router';
import type { Employee, SubscriberGroup } from '../types';
import { GroupManager } from '../ui/group-manager';
import { LoadFailure, StatusLine } from '../ui/messages';
import { ConnectionSettings, type NewKey } from './employees/connection-settings';
import { EmployeeForm } from './employees/employee-form';
import { EMPLOYEE_GROUPS, EMPLOYEES, EmployeeTable } from './employees/employee-table';
import './employees.css';
import { t } from '../i18n/i18n';

const count = (n: number) => t('emp.count', { count: n });

/**
 * The Employees tab: `#/employees` the list and the groups, `#/employees/new` and
 * `#/employees/<id>` the form. A key set by a save is shown here whole, once, with the connection
 * settings; the page keeps it only until the coordinator moves on (the form shows the settings
 * every time after, with the key's last characters).
 */
export function EmployeesPage({ route }: { route: string[] }) {
  const canEdit = useCan('edit');
  const [view, newKind] = route;
  const [employees, setEmployees] = useState<Employee[] | null>(null);
  const [groups, setGroups] = useState<SubscriberGroup[]>([]);
  const [loadError, setLoadError] = useState('');
  const [status, setStatus] = useState('');
  const [newKey, setNewKey] = useState<NewKey | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = async () => {
    const [list, groupList] = await Promise.all([
      api.get<Employee[]>(`${EMPLOYEES}${query({ withCustomTemplateItems: false })}`),
      api.get<SubscriberGroup[]>(EMPLOYEE_GROUPS),
    ]);
    setEmployees(list);
    setGroups([...groupList].sort((a, b) => a.name.localeCompare(b.name)));
    setLoadError('');
  };
  const reload = () => load().catch((error: unknown) => setLoadError(t('emp.loadFailed', { reason: describe(error) })));
  useEffect(() => {
    void reload();
  }, [view]);
  useLayoutEffect(() => {
    if (view === undefined && !newKey) heading.current?.focus();
  }, [view, newKey]);

  const keyed = (key: NewKey) => {
    setNewKey(key);
    navigate('employees', key.subscriberID);
  };
  const done = () => {
    setNewKey(null);
    navigate('employees');
  };

  if (newKey && view === String(newKey.subscriberID)) {
    const shown = { name: newKey.name, device: newKey.device, protocol: newKey.protocol, deviceKey: newKey.deviceKey, keyHint: null, hasPassword: newKey.hasPassword, status: null };
    return <ConnectionSettings shown={shown} once onDone={done} />;
  }
  if (view === 'new' || (view !== undefined && /^\d+$/.test(view))) {
    const kind = newKind === 'vehicle' ? 'vehicle' : 'person';
    return <EmployeeForm key={`${view}-${kind}`} subscriberID={view === 'new' ? null : Number(view)} newKind={kind} groups={groups} onKeyed={keyed} onChanged={setStatus} />;
  }

  const members = (groupID: number) => count((employees ?? []).filter((e) => e.subscriberGroupID === groupID).length);
  const groupsChanged = async (message: string) => {
    await reload();
    setStatus(message);
  };
  return (
    <section class="employees-page" aria-labelledby="employees-title">
      <div class="list-head">
        <h1 id="employees-title" tabIndex={-1} ref={heading}>
          {t('emp.title')}
        </h1>
        {canEdit && (
          <div class="actions" role="group" aria-label={t('emp.add')}>
            <button type="button" onClick={() => navigate('employees', 'new')}>
              {t('emp.new')}
            </button>
            <button type="button" onClick={() => navigate('employees', 'new', 'vehicle')}>
              {t('emp.newVehicle')}
            </button>
          </div>
        )}
      </div>
      <StatusLine class="ok" message={status} />
      <LoadFailure message={loadError} onRetry={() => void reload()} />
      <div class="employees-layout">
        <EmployeeTable employees={employees} groups={groups} />
        {canEdit && (
          <GroupManager
            title={t('emp.groups')}
            path={EMPLOYEE_GROUPS}
            idField="subscriberGroupID"
            groups={groups.map((g) => ({ id: g.subscriberGroupID, name: g.name, members: members(g.subscriberGroupID) }))}
            onChanged={groupsChanged}
          />
        )}
      </div>
    </section>
  );
}
