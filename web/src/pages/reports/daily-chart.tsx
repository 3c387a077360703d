import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDay, formatKm, formatLitres, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';

const DISTANCE_COLOUR = '#1f5fbf';
const FUEL_COLOUR = '#c25e00';
const HEIGHT_PX = 220;

export interface DayTotal {
  date: string;
  mileageKm: number;
  fuelLitres: number;
}

/**
 * Distance (km, left axis) and fuel used (l, right axis) per day over the chosen employees. The
 * canvas is an image to assistive technology; the caption says in words what it shows.
 */
export function DailyChart({ days }: { days: DayTotal[] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element || days.length === 0) return;
    const width = () => Math.max(240, Math.floor(element.clientWidth));
    const chart = new uPlot(options(days, width()), [days.map((_, i) => i), days.map((d) => d.mileageKm), days.map((d) => d.fuelLitres)], element);
    const resized = new ResizeObserver(() => chart.setSize({ width: width(), height: HEIGHT_PX }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      chart.destroy();
    };
  }, [days]);

  const total = (pick: (d: DayTotal) => number) => days.reduce((sum, d) => sum + pick(d), 0);
  const busiest = days.reduce<DayTotal | null>((top, d) => (!top || d.mileageKm > top.mileageKm ? d : top), null);
  return (
    <figure class="daily-chart" aria-labelledby="daily-chart-title">
      <h2 id="daily-chart-title">{t('reports.chartTitle')}</h2>
      <div ref={host} role="img" aria-label={t('reports.chartLabel')} aria-describedby="daily-chart-summary" />
      <figcaption id="daily-chart-summary">
        {days.length === 0
          ? t('reports.noDays')
          : t('reports.chartSummary', {
              distance: formatKm(total((d) => d.mileageKm)),
              fuel: formatLitres(total((d) => d.fuelLitres)),
              count: days.length,
              day: formatDay(busiest!.date),
              dayDistance: formatKm(busiest!.mileageKm),
            })}
      </figcaption>
    </figure>
  );
}

function options(days: DayTotal[], width: number): uPlot.Options {
  const label = (i: number) => days[Math.round(i)]?.date.slice(5) ?? '';
  return {
    width,
    height: HEIGHT_PX,
    scales: { x: { time: false }, km: { range: (_u, _min, max) => [0, Math.max(1, max)] }, l: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    series: [
      { label: t('reports.day'), value: (_u, v) => (v === null ? '–' : (days[v]?.date ?? '')) },
      { label: t('reports.distanceKm'), scale: 'km', stroke: DISTANCE_COLOUR, width: 2, points: { show: true }, value: (_u, v) => (v === null ? '–' : formatNumber(v, 1, 1)) },
      { label: t('reports.fuelUsedL'), scale: 'l', stroke: FUEL_COLOUR, width: 2, points: { show: true }, value: (_u, v) => (v === null ? '–' : formatNumber(v, 1, 1)) },
    ],
    axes: [
      { values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? label(s) : '')), space: 40 },
      { scale: 'km', label: t('reports.distanceKm'), stroke: DISTANCE_COLOUR, size: 44, labelSize: 20 },
      { scale: 'l', label: t('reports.fuelL'), side: 1, stroke: FUEL_COLOUR, size: 44, labelSize: 20, grid: { show: false } },
    ],
  };
}
