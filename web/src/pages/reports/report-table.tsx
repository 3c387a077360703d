import { useMemo, useState } from 'preact/hooks';
import type { Column } from './report-columns';
import type { Row } from './report-model';
import { t } from '../../i18n/i18n';

type Direction = 'ascending' | 'descending';

/**
 * The report's records in a table whose column headers sort it: each header is a button (Enter or
 * Space toggles the order), and `aria-sort` tells a screen reader which column orders the rows.
 */
export function ReportTable({ columns, rows, caption }: { columns: Column[]; rows: Row[]; caption: string }) {
  const [sort, setSort] = useState<{ key: string; direction: Direction } | null>(null);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.key === sort.key);
    if (!column) return rows;
    const factor = sort.direction === 'ascending' ? 1 : -1;
    return [...rows].sort((a, b) => {
      const [x, y] = [column.sort(a), column.sort(b)];
      return (x < y ? -1 : x > y ? 1 : 0) * factor;
    });
  }, [rows, columns, sort]);

  const toggle = (key: string) =>
    setSort((current) => ({ key, direction: current?.key === key && current.direction === 'ascending' ? 'descending' : 'ascending' }));

  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={t('reports.scrolls', { caption })}>
      <table class="report-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" aria-sort={sort?.key === c.key ? sort.direction : undefined} class={c.numeric ? 'number' : undefined}>
                <button type="button" class="sort" onClick={() => toggle(c.key)}>
                  {t(c.label)}
                  <span aria-hidden="true">{sort?.key === c.key ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.key} class={c.numeric ? 'number' : undefined}>
                  {c.text(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
