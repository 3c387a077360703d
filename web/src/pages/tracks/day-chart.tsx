import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Day, Reading } from './day-data';
import { clockTime } from './zoned-time';
import { formatLitres, formatNumber, formatSpeed } from '../../i18n/format';
import { t } from '../../i18n/i18n';

const SPEED_COLOUR = '#1f5fbf';
const FUEL_COLOUR = '#c25e00';
const HEIGHT_PX = 220;

/**
 * Speed (km/h, left axis) and fuel level (l, right axis) over the day's readings, the time axis
 * in the account's zone. The canvas is an image to assistive technology; the summary below it
 * says in words what it shows.
 */
export function DayChart({ day, timeZone }: { day: Day; timeZone: string }) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const chart = new uPlot(chartOptions(timeZone, day.day, widthOf(element)), chartData(day), element);
    const resized = new ResizeObserver(() => chart.setSize({ width: widthOf(element), height: HEIGHT_PX }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      chart.destroy();
    };
  }, [day, timeZone]);

  return (
    <figure class="day-chart" aria-labelledby="day-chart-title">
      <h2 id="day-chart-title">{t('tracks.chartTitle')}</h2>
      <div
        ref={host}
        class="day-chart-canvas"
        role="img"
        aria-label={t('tracks.chartLabel')}
        aria-describedby="day-chart-summary"
      />
      <figcaption id="day-chart-summary">{summarise(day.readings, timeZone, day.day)}</figcaption>
    </figure>
  );
}

const widthOf = (element: HTMLElement) => Math.max(240, Math.floor(element.clientWidth));

function chartOptions(timeZone: string, dayText: string, width: number): uPlot.Options {
  const time = (seconds: number) => clockTime(seconds * 1000, timeZone, dayText);
  return {
    width,
    height: HEIGHT_PX,
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), timeZone),
    scales: { x: { time: true }, kmh: { range: (_u, _min, max) => [0, Math.max(10, Math.ceil((max || 0) / 10) * 10)] }, l: {} },
    series: [
      { label: t('tracks.time'), value: (_u, v) => (v === null ? '–' : time(v)) },
      { label: t('tracks.speedAxis'), scale: 'kmh', stroke: SPEED_COLOUR, width: 1.5, spanGaps: true, value: (_u, v) => (v === null ? '–' : formatNumber(v, 0)) },
      { label: t('tracks.fuelAxis'), scale: 'l', stroke: FUEL_COLOUR, width: 2, spanGaps: true, value: (_u, v) => (v === null ? '–' : formatNumber(v, 1, 1)) },
    ],
    axes: [
      // 24-hour clock times in the account's zone, whatever the browser's locale.
      { values: (_u, splits) => splits.map(time), space: 50 },
      { scale: 'kmh', label: t('tracks.speedAxis'), stroke: SPEED_COLOUR, size: 44, labelSize: 20 },
      { scale: 'l', label: t('tracks.fuelAxis'), side: 1, stroke: FUEL_COLOUR, size: 44, labelSize: 20, grid: { show: false } },
    ],
  };
}

/** uPlot's columns (seconds, speed, fuel): the axis spans the readings, so a vehicle heard from 08:00 to 09:30 fills the chart. */
function chartData(day: Day): uPlot.AlignedData {
  const points = day.readings.filter((r) => r.timeMs >= day.startMs && r.timeMs < day.endMs);
  return [points.map((r) => r.timeMs / 1000), points.map((r) => r.speedKmh), points.map((r) => r.fuelLitres)];
}

/** The chart in words: the highest speed and when, the fuel at the first and last reading and its lowest. */
export function summarise(readings: Reading[], timeZone: string, day: string): string {
  const time = (ms: number) => clockTime(ms, timeZone, day);
  const parts: string[] = [];
  const speeds = readings.filter((r) => r.speedKmh !== null);
  if (speeds.length === 0) parts.push(t('tracks.noSpeed'));
  else {
    const top = speeds.reduce((a, b) => (b.speedKmh! > a.speedKmh! ? b : a));
    parts.push(t('tracks.highest', { speed: formatSpeed(top.speedKmh!), time: time(top.timeMs) }));
  }
  const fuel = readings.filter((r) => r.fuelLitres !== null);
  if (fuel.length === 0) parts.push(t('tracks.noFuel'));
  else {
    const first = fuel[0]!;
    const last = fuel.at(-1)!;
    const lowest = fuel.reduce((low, r) => Math.min(low, r.fuelLitres!), Infinity);
    parts.push(
      t('tracks.fuel', { first: formatLitres(first.fuelLitres!), firstTime: time(first.timeMs), last: formatLitres(last.fuelLitres!), lastTime: time(last.timeMs), lowest: formatLitres(lowest) }),
    );
  }
  return parts.join(' ');
}
