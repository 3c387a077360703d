import type { Employee, SubscriberGroup } from '../../types';
import type { Whose } from './report-model';
import { t } from '../../i18n/i18n';

export interface People {
  employees: Employee[];
  groups: SubscriberGroup[];
}

/** Everyone, one group or one employee: one labelled select, grouped. */
export function WhoseSelect({ id, people, value, onChange }: { id: string; people: People; value: Whose; onChange: (whose: Whose) => void }) {
  return (
    <label>
      <span id={`${id}-label`}>{t('reports.employees')}</span>
      <select id={id} aria-labelledby={`${id}-label`} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="all">{t('reports.allEmployees')}</option>
        {people.groups.length > 0 && (
          <optgroup label={t('reports.groups')}>
            {people.groups.map((g) => (
              <option key={g.subscriberGroupID} value={`g:${g.subscriberGroupID}`}>
                {g.name}
              </option>
            ))}
          </optgroup>
        )}
        <optgroup label={t('reports.employees')}>
          {people.employees.map((e) => (
            <option key={e.subscriberID} value={`e:${e.subscriberID}`}>
              {e.name}
            </option>
          ))}
        </optgroup>
      </select>
    </label>
  );
}
