import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, describe } from '../api';
import { useSessionInfo } from '../session';
import type { Employee, SubscriberGroup } from '../types';
import { ErrorAlert } from '../ui/messages';
import { DailyChart, type DayTotal } from './reports/daily-chart';
import { columnsOf } from './reports/report-columns';
import { DEFAULT_REPORT, loadReport, REPORTS, reportName, reportPath, reportView, type ReportChoice, type Row } from './reports/report-model';
import { ReportTable } from './reports/report-table';
import { ScheduleSection } from './reports/schedule-section';
import { WhoseSelect, type People } from './reports/whose-select';
import { dayIn, shiftDay } from './tracks/zoned-time';
import './reports.css';
import { formatDay } from '../i18n/format';
import { language, t } from '../i18n/i18n';

type Loaded = { status: 'idle' } | { status: 'loading' } | { status: 'failed'; error: string } | { status: 'loaded'; choice: ReportChoice; rows: Row[]; complete: boolean };

/** The per-day totals the chart draws (the reports with `dailyChart`): mileage and fuel, over the employees. */
function dailyTotals(rows: Row[]): DayTotal[] {
  const days = new Map<string, DayTotal>();
  for (const row of rows as unknown as { date: string; mileage: number; fuelConsumption: number }[]) {
    const day = days.get(row.date) ?? { date: row.date, mileageKm: 0, fuelLitres: 0 };
    day.mileageKm += row.mileage;
    day.fuelLitres += row.fuelConsumption;
    days.set(row.date, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/**
 * Reports: a report for everyone, a group or one employee over whole days of the
 * account's zone, in a sortable table (the summary and fuel reports with a chart per day), to
 * download as CSV or XLSX; and the reports e-mailed on a schedule.
 */
export function ReportsPage() {
  const { account } = useSessionInfo();
  const today = dayIn(account.timeZone, Date.now());
  const [choice, setChoice] = useState<ReportChoice>({ kind: DEFAULT_REPORT, whose: 'all', from: shiftDay(today, -6), to: today });
  const [people, setPeople] = useState<People>({ employees: [], groups: [] });
  const [peopleError, setPeopleError] = useState('');
  const [loaded, setLoaded] = useState<Loaded>({ status: 'idle' });

  useEffect(() => {
    Promise.all([api.get<Employee[]>('/v6/api/subscriberManagement/subscribers'), api.get<SubscriberGroup[]>('/v6/api/subscriberManagement/subscriberGroups')])
      .then(([employees, groups]) => setPeople({ employees: [...employees].sort((a, b) => a.name.localeCompare(b.name)), groups }))
      .catch((error: unknown) => setPeopleError(t('reports.employeesFailed', { reason: describe(error) })));
  }, []);

  const show = async (event: Event) => {
    event.preventDefault();
    const chosen = { ...choice };
    setLoaded({ status: 'loading' });
    try {
      const { rows, complete } = await loadReport(chosen);
      setLoaded({ status: 'loaded', choice: chosen, rows, complete });
    } catch (error) {
      setLoaded({ status: 'failed', error: describe(error) });
    }
  };

  const label = reportName(choice.kind);
  const shown = loaded.status === 'loaded' ? loaded : null;
  const shownLabel = shown ? reportName(shown.choice.kind) : '';
  const chart = useMemo(() => (shown && reportView(shown.choice.kind).dailyChart ? dailyTotals(shown.rows) : null), [shown]);

  return (
    <section class="reports-page" aria-labelledby="reports-title">
      <h1 id="reports-title">{t('reports.title')}</h1>
      <form class="toolbar" onSubmit={show} aria-label={t('reports.choose')}>
        <label>
          <span id="report-kind-label">{t('reports.report')}</span>
          <select aria-labelledby="report-kind-label" value={choice.kind} onChange={(e) => setChoice({ ...choice, kind: e.currentTarget.value as ReportChoice['kind'] })}>
            {REPORTS.map((r) => (
              <option key={r.kind} value={r.kind}>
                {t(r.label)}
              </option>
            ))}
          </select>
        </label>
        <WhoseSelect id="report-whose" people={people} value={choice.whose} onChange={(whose) => setChoice({ ...choice, whose })} />
        <label>
          <span id="report-from-label">{t('reports.from')}</span>
          <input type="date" aria-labelledby="report-from-label" value={choice.from} max={choice.to} required onChange={(e) => setChoice({ ...choice, from: e.currentTarget.value })} />
        </label>
        <label>
          <span id="report-to-label">{t('reports.to')}</span>
          <input type="date" aria-labelledby="report-to-label" value={choice.to} min={choice.from} required onChange={(e) => setChoice({ ...choice, to: e.currentTarget.value })} />
        </label>
        <button type="submit">{t('reports.show', { report: language() === 'en' ? label.toLowerCase() : label })}</button>
      </form>
      <ErrorAlert message={peopleError} />

      <div role="status" class="reports-status">
        {loaded.status === 'loading' && <p class="muted">{t('reports.loading')}</p>}
        {shown && (
          <p>
            {t('reports.shown', { report: shownLabel, from: formatDay(shown.choice.from), to: formatDay(shown.choice.to), count: shown.rows.length })}
            {shown.complete ? '' : t('reports.partial')}.
          </p>
        )}
      </div>
      {loaded.status === 'failed' && <ErrorAlert message={t('reports.failed', { reason: loaded.error })} />}

      {shown && (
        <div class="report-result">
          <div class="downloads">
            <a class="button" href={reportPath(shown.choice, 'xlsx')} download>
              {t('reports.xlsx', { report: shownLabel })}
            </a>
            <a class="button secondary" href={reportPath(shown.choice, 'csv')} download>
              {t('reports.csv', { report: shownLabel })}
            </a>
          </div>
          {chart && <DailyChart days={chart} />}
          <ReportTable columns={columnsOf(shown.choice.kind)} rows={shown.rows} caption={t('reports.caption', { report: shownLabel, from: formatDay(shown.choice.from), to: formatDay(shown.choice.to) })} />
        </div>
      )}

      <ScheduleSection people={people} />
    </section>
  );
}
