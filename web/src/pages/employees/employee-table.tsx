import { useState } from 'preact/hooks';
import type { Employee, SubscriberGroup } from '../../types';
import { matchesWords, searchWords } from '../../../../src/http/free-text';

export const EMPLOYEES = '/v6/api/subscriberManagement/subscribers';
export const EMPLOYEE_GROUPS = '/v6/api/subscriberManagement/subscriberGroups';

/** More rows than this are not drawn: the search and filters narrow a big fleet down. */
const MAX_ROWS = 500;

type Presence = 'all' | 'online' | 'offline';

interface Props {
  employees: Employee[] | null;
  groups: SubscriberGroup[];
}

/** The account's employees with their group, presence and device, filtered by name, group and presence. */
export function EmployeeTable({ employees, groups }: Props) {
  const [search, setSearch] = useState('');
  const [groupFilter, setGroupFilter] = useState('');
  const [presence, setPresence] = useState<Presence>('all');
  const [showInactive, setShowInactive] = useState(false);
  const groupName = new Map(groups.map((g) => [g.subscriberGroupID, g.name]));

  const words = searchWords(search);
  const all = employees ?? [];
  const matching = all
    .filter((e) => showInactive || e.isActive)
    .filter((e) => groupFilter === '' || (groupFilter === 'none' ? e.subscriberGroupID === null : String(e.subscriberGroupID) === groupFilter))
    .filter((e) => presence === 'all' || e.isOnline === (presence === 'online'))
    // Every word in one of the fields: "Иван 7911" finds Ivan by name and phone.
    .filter((e) => words.length === 0 || matchesWords([e.name, e.phone, e.externalSubscriberID ?? ''].join('\n'), words))
    .sort((a, b) => a.name.localeCompare(b.name));
  const shown = matching.slice(0, MAX_ROWS);

  return (
    <div class="employee-table">
      <div class="toolbar" role="search" aria-label="Filter employees">
        <label>
          Find employee
          <input type="search" value={search} autocomplete="off" onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <label>
          Group
          <select value={groupFilter} onChange={(e) => setGroupFilter(e.currentTarget.value)}>
            <option value="">All groups</option>
            <option value="none">No group</option>
            {groups.map((g) => (
              <option key={g.subscriberGroupID} value={String(g.subscriberGroupID)}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Presence
          <select value={presence} onChange={(e) => setPresence(e.currentTarget.value as Presence)}>
            <option value="all">Online and offline</option>
            <option value="online">Online</option>
            <option value="offline">Offline</option>
          </select>
        </label>
        <label class="inline">
          <input type="checkbox" checked={showInactive} onChange={(e) => setShowInactive(e.currentTarget.checked)} />
          Show deactivated
        </label>
      </div>
      {employees === null ? (
        <p class="muted">Loading employees…</p>
      ) : (
        <p class="muted" aria-live="polite">
          {matching.length === all.length ? `${all.length} employees` : `${matching.length} of ${all.length} employees`}
          {matching.length > shown.length && ` (the first ${shown.length} shown: narrow the search)`}
        </p>
      )}
      {shown.length > 0 && (
        <table class="cards">
          <caption class="visually-hidden">Employees</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Group</th>
              <th scope="col">Presence</th>
              <th scope="col">Device key</th>
              <th scope="col">Phone</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => (
              <tr key={e.subscriberID} data-subscriber-id={e.subscriberID}>
                <td data-label="Name">
                  <a href={`#/employees/${e.subscriberID}`}>{e.name}</a>
                  {!e.isActive && <span class="muted"> (deactivated)</span>}
                </td>
                <td data-label="Group">{e.subscriberGroupID === null ? '—' : (groupName.get(e.subscriberGroupID) ?? '—')}</td>
                <td data-label="Presence">
                  <span class={e.isOnline ? 'presence online' : 'presence'}>{e.isOnline ? 'Online' : 'Offline'}</span>
                </td>
                <td data-label="Device key">{e.deviceKeyHint ?? 'none'}</td>
                <td data-label="Phone">{e.phone || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
