import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import type { Employee, Location, SubscriberGroup } from '../../types';
import { matchesWords, searchWords } from '../../../../src/http/free-text';
import { formatAge, formatFullDateTime, formatSpeed } from '../../i18n/format';
import { t, untranslated } from '../../i18n/i18n';

interface Props {
  employees: ReadonlyMap<number, Employee> | null;
  positions: ReadonlyMap<number, Location>;
  timeZone: string;
  selected: number | null;
  onSelect: (subscriberID: number) => void;
}

/** More rows than this are not drawn (the search and the group narrow a big fleet down): the list is redrawn with every batch of positions. */
const MAX_ROWS = 200;

/** The side list: each employee with a position is a button that centres the map on them. */
export function EmployeeList({ employees, positions, timeZone, selected, onSelect }: Props) {
  const [filter, setFilter] = useState('');
  const [groupFilter, setGroupFilter] = useState('');
  const [groups, setGroups] = useState<SubscriberGroup[]>([]);
  const list = useRef<HTMLUListElement>(null);

  // The account's employee groups, for the filter and the rows (a list without them still works).
  useEffect(() => {
    api
      .get<SubscriberGroup[]>('/v6/api/subscriberManagement/subscriberGroups')
      .then((answer) => setGroups([...answer].sort((a, b) => a.name.localeCompare(b.name))))
      .catch(() => setGroups([]));
  }, []);
  const groupName = new Map(groups.map((group) => [group.subscriberGroupID, group.name]));

  // A marker chosen on the map brings its row into view.
  useEffect(() => {
    if (selected === null) return;
    list.current?.querySelector(`[data-subscriber-id="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  // Sorted when the employees change, not with every batch of positions.
  const all = useMemo(() => (employees ? [...employees.values()].sort((a, b) => a.name.localeCompare(b.name)) : []), [employees]);
  const words = searchWords(filter);
  const inGroup = groupFilter ? all.filter((employee) => String(employee.subscriberGroupID) === groupFilter) : all;
  const matching = words.length > 0 ? inGroup.filter((employee) => matchesWords(employee.name, words)) : inGroup;
  const filtered = words.length > 0 || groupFilter !== '';

  return (
    <aside class="employee-panel" aria-labelledby="employees-title">
      <h2 id="employees-title">{t('map.employees')}</h2>
      <label>
        {t('map.find')}
        <input type="search" value={filter} onInput={(event) => setFilter(event.currentTarget.value)} autocomplete="off" />
      </label>
      {groups.length > 0 && (
        <label>
          {t('map.group')}
          <select value={groupFilter} onChange={(event) => setGroupFilter(event.currentTarget.value)}>
            <option value="">{t('map.allGroups')}</option>
            {groups.map((group) => (
              <option key={group.subscriberGroupID} value={String(group.subscriberGroupID)}>
                {group.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {employees === null ? (
        <p class="muted">{t('map.loadingEmployees')}</p>
      ) : (
        <p class="muted" aria-live="polite">
          {filtered ? t('map.countOf', { shown: matching.length, count: all.length }) : t('map.count', { count: all.length })}
          {matching.length > MAX_ROWS && t('map.firstListed', { max: MAX_ROWS })}
        </p>
      )}
      <ul class="employee-list" ref={list}>
        {matching.slice(0, MAX_ROWS).map((employee) => {
          const position = positions.get(employee.subscriberID);
          return (
            <li key={employee.subscriberID} data-subscriber-id={employee.subscriberID}>
              <button
                type="button"
                class="employee-row"
                disabled={!position}
                aria-current={selected === employee.subscriberID ? 'true' : undefined}
                onClick={() => onSelect(employee.subscriberID)}
              >
                <span class="employee-name" {...untranslated}>{employee.name}</span>
                <span class={employee.isOnline ? 'presence online' : 'presence'}>{employee.isOnline ? t('map.online') : t('map.offline')}</span>
                {employee.subscriberGroupID !== null && groupName.has(employee.subscriberGroupID) && (
                  <span class="employee-group">{groupName.get(employee.subscriberGroupID)}</span>
                )}
                <span class="employee-fix">
                  {position ? (
                    <>
                      <time dateTime={position.locationDate} title={formatFullDateTime(position.locationDate, timeZone)}>
                        {formatAge(position.locationDate, timeZone)}
                      </time>{' '}
                      · {formatSpeed(position.velocity)}
                    </>
                  ) : (
                    t('map.noPosition')
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
