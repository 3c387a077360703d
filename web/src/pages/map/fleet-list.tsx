import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Employee, Location, SubscriberGroup } from '../../types';
import { formatAge, formatFullDateTime, formatSpeed } from '../../i18n/format';
import { t, untranslated } from '../../i18n/i18n';
import type { FleetFilter } from './fleet-filter';
import { FLEET_STATES, STATE_LABEL, type FleetState } from './fleet-state';

interface Props {
  /** Every employee, sorted by name; null while they load. */
  all: readonly Employee[] | null;
  /** Those the filter leaves, in the same order. */
  matching: readonly Employee[];
  filter: FleetFilter;
  onFilter: (filter: FleetFilter) => void;
  groups: readonly SubscriberGroup[];
  states: ReadonlyMap<number, FleetState>;
  counts: ReadonlyMap<FleetState, number>;
  positions: ReadonlyMap<number, Location>;
  timeZone: string;
  selected: number | null;
  onSelect: (subscriberID: number) => void;
  /** Shown above the list (the chosen employee's card). */
  children?: ComponentChildren;
}

/** More rows than this are not drawn (the search and the filters narrow a big fleet down): the list is redrawn with every batch of positions. */
const MAX_ROWS = 200;

/** The side list: search, group and state filters, and a row per employee that opens their card and finds them on the map. */
export function FleetList({ all, matching, filter, onFilter, groups, states, counts, positions, timeZone, selected, onSelect, children }: Props) {
  const list = useRef<HTMLUListElement>(null);

  // A marker chosen on the map brings its row into view.
  useEffect(() => {
    if (selected === null) return;
    list.current?.querySelector(`[data-subscriber-id="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const groupName = new Map(groups.map((group) => [group.subscriberGroupID, group.name]));
  const filtered = matching.length !== (all?.length ?? 0);

  return (
    <aside class="employee-panel" aria-labelledby="employees-title">
      {children}
      <h2 id="employees-title">{t('map.employees')}</h2>
      <div class="fleet-filters">
        <label>
          {t('map.find')}
          <input type="search" value={filter.text} onInput={(event) => onFilter({ ...filter, text: event.currentTarget.value })} autocomplete="off" />
        </label>
        {groups.length > 0 && (
          <label>
            {t('map.group')}
            <select value={filter.groupID} onChange={(event) => onFilter({ ...filter, groupID: event.currentTarget.value })}>
              <option value="">{t('map.allGroups')}</option>
              {groups.map((group) => (
                <option key={group.subscriberGroupID} value={String(group.subscriberGroupID)} {...untranslated}>
                  {group.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {t('map.stateFilter')}
          <select value={filter.state} onChange={(event) => onFilter({ ...filter, state: event.currentTarget.value as FleetState | '' })}>
            <option value="">{t('map.allStates')}</option>
            {FLEET_STATES.map((state) => (
              <option key={state} value={state}>
                {t('map.stateOption', { state: t(STATE_LABEL[state]), count: counts.get(state) ?? 0 })}
              </option>
            ))}
          </select>
        </label>
      </div>
      {all === null ? (
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
          const state = states.get(employee.subscriberID) ?? 'noData';
          return (
            <li key={employee.subscriberID} data-subscriber-id={employee.subscriberID}>
              <button
                type="button"
                class="employee-row"
                aria-current={selected === employee.subscriberID ? 'true' : undefined}
                onClick={() => onSelect(employee.subscriberID)}
              >
                <span class="employee-name" {...untranslated}>
                  {employee.name}
                </span>
                <span class={`row-state state-${state}`}>
                  <span class="swatch" aria-hidden="true" />
                  {t(STATE_LABEL[state])}
                </span>
                {employee.subscriberGroupID !== null && groupName.has(employee.subscriberGroupID) && (
                  <span class="employee-group" {...untranslated}>
                    {groupName.get(employee.subscriberGroupID)}
                  </span>
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
