import { useState } from 'preact/hooks';
import type { Employee, SubscriberGroup } from '../../types';
import { matchesWords, searchWords } from '../../../../src/http/free-text';
import { t, untranslated } from '../../i18n/i18n';

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
      <div class="toolbar" role="search" aria-label={t('emp.filter')}>
        <label>
          {t('emp.find')}
          <input type="search" value={search} autocomplete="off" onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <label>
          {t('emp.group')}
          <select value={groupFilter} onChange={(e) => setGroupFilter(e.currentTarget.value)}>
            <option value="">{t('emp.allGroups')}</option>
            <option value="none">{t('emp.noGroup')}</option>
            {groups.map((g) => (
              <option key={g.subscriberGroupID} value={String(g.subscriberGroupID)}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('emp.presence')}
          <select value={presence} onChange={(e) => setPresence(e.currentTarget.value as Presence)}>
            <option value="all">{t('emp.anyPresence')}</option>
            <option value="online">{t('emp.online')}</option>
            <option value="offline">{t('emp.offline')}</option>
          </select>
        </label>
        <label class="inline">
          <input type="checkbox" checked={showInactive} onChange={(e) => setShowInactive(e.currentTarget.checked)} />
          {t('emp.showInactive')}
        </label>
      </div>
      {employees === null ? (
        <p class="muted">{t('emp.loading')}</p>
      ) : (
        <p class="muted" aria-live="polite">
          {matching.length === all.length ? t('emp.count', { count: all.length }) : t('emp.countOf', { shown: matching.length, count: all.length })}
          {matching.length > shown.length && t('emp.firstShown', { shown: shown.length })}
        </p>
      )}
      {shown.length > 0 && (
        <table class="cards">
          <caption class="visually-hidden">{t('emp.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('emp.name')}</th>
              <th scope="col">{t('emp.group')}</th>
              <th scope="col">{t('emp.presence')}</th>
              <th scope="col">{t('emp.deviceKey')}</th>
              <th scope="col">{t('emp.phone')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => (
              <tr key={e.subscriberID} data-subscriber-id={e.subscriberID}>
                <td data-label={t('emp.name')}>
                  <a href={`#/employees/${e.subscriberID}`}>{e.name}</a>
                  {!e.isActive && <span class="muted">{t('emp.deactivatedMark')}</span>}
                </td>
                <td data-label={t('emp.group')}>{e.subscriberGroupID === null ? '—' : (groupName.get(e.subscriberGroupID) ?? '—')}</td>
                <td data-label={t('emp.presence')}>
                  <span class={e.isOnline ? 'presence online' : 'presence'}>{e.isOnline ? t('emp.online') : t('emp.offline')}</span>
                </td>
                <td data-label={t('emp.deviceKey')}>{e.deviceKeyHint ? <span {...untranslated}>{e.deviceKeyHint}</span> : t('emp.noKey')}</td>
                <td data-label={t('emp.phone')}>{e.phone || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
