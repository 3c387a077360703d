import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import type { Replay } from './replay-data';
import { clockTime } from './zoned-time';

const FUEL_COLOUR = '#8a5a00';
const HEIGHT_PX = 200;

interface Props {
  replay: Replay;
  timeZone: string;
  timeMs: number;
  /** Whether moving over the chart moves the replay: while it plays, only a click does, so a resting pointer does not hold it. */
  followPointer: boolean;
  onTime: (ms: number) => void;
}

/**
 * Speed of each employee (and the fuel level, for one) over the span of the data, the time axis
 * in the account's zone. Its cursor is the replay's time: moving over the chart (or clicking it)
 * moves the replay, and the replay moves the cursor.
 */
export function ReplayChart({ replay, timeZone, timeMs, followPointer, onTime }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const pick = useRef(onTime);
  pick.current = onTime;
  const follow = useRef(followPointer);
  follow.current = followPointer;
  const time = useRef(timeMs);
  time.current = timeMs;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    // Only a pointer over the plot moves the replay: uPlot also runs its cursor hook when it redraws or resizes.
    let pointerInside = false;
    const created = new uPlot(chartOptions(replay, timeZone, widthOf(element), (ms) => pointerInside && follow.current && pick.current(ms)), chartData(replay), element);
    chart.current = created;
    created.over.addEventListener('mouseenter', () => (pointerInside = true));
    created.over.addEventListener('click', (event) => {
      const left = event.clientX - created.over.getBoundingClientRect().left;
      pick.current(Math.min(replay.endMs, Math.max(replay.startMs, created.posToVal(left, 'x') * 1000)));
    });
    // uPlot hides its cursor when the pointer leaves; the replay's time is still somewhere: show it.
    created.over.addEventListener('mouseleave', () => {
      pointerInside = false;
      requestAnimationFrame(() => chart.current === created && placeCursor(created, time.current));
    });
    const resized = new ResizeObserver(() => created.setSize({ width: widthOf(element), height: HEIGHT_PX }));
    resized.observe(element);
    return () => {
      chart.current = null;
      resized.disconnect();
      created.destroy();
    };
  }, [replay, timeZone]);

  useEffect(() => {
    const drawn = chart.current;
    if (!drawn) return;
    placeCursor(drawn, timeMs);
  }, [replay, timeMs]);

  return (
    <figure class="replay-chart" aria-labelledby="replay-chart-title">
      <h2 id="replay-chart-title">{t('tracks.chartTitle')}</h2>
      <div ref={host} class="replay-chart-canvas" role="img" aria-label={t('replay.chartLabel')} data-time-ms={Math.round(timeMs)} />
    </figure>
  );
}

/** The cursor at the replay's time; `false`: not a user's move, so it does not set the time back. */
function placeCursor(chart: uPlot, timeMs: number) {
  chart.setCursor({ left: chart.valToPos(timeMs / 1000, 'x'), top: HEIGHT_PX / 4 }, false);
}

const widthOf = (element: HTMLElement) => Math.max(240, Math.floor(element.clientWidth));

function chartOptions(replay: Replay, timeZone: string, width: number, onTime: (ms: number) => void): uPlot.Options {
  const time = (seconds: number) => clockTime(seconds * 1000, timeZone);
  const single = replay.employees.length === 1;
  const start = replay.startMs / 1000;
  const end = Math.max(replay.endMs / 1000, start + 60);
  return {
    width,
    height: HEIGHT_PX,
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), timeZone),
    // The axis spans the data, not the day: an hour's replay reads as an hour.
    scales: { x: { time: true, range: () => [start, end] }, kmh: { range: (_u, _min, max) => [0, Math.max(10, Math.ceil((max || 0) / 10) * 10)] }, l: {} },
    cursor: { y: false, drag: { x: false, y: false } },
    hooks: {
      setCursor: [
        (u) => {
          const left = u.cursor.left;
          if (left === undefined || left < 0) return;
          onTime(Math.min(end, Math.max(start, u.posToVal(left, 'x'))) * 1000);
        },
      ],
    },
    series: [
      { label: t('tracks.time'), value: (_u, v) => (v === null ? '–' : time(v)) },
      ...replay.employees.map((e) => ({
        label: single ? t('tracks.speedAxis') : e.name,
        scale: 'kmh',
        stroke: e.colour,
        width: 1.5,
        spanGaps: true,
        value: (_u: uPlot, v: number | null) => (v === null ? '–' : formatNumber(v, 0)),
      })),
      ...(single ? [{ label: t('tracks.fuelAxis'), scale: 'l', stroke: FUEL_COLOUR, width: 2, spanGaps: true, value: (_u: uPlot, v: number | null) => (v === null ? '–' : formatNumber(v, 1, 1)) }] : []),
    ],
    axes: [
      { values: (_u, splits) => splits.map(time), space: 60 },
      { scale: 'kmh', label: t('tracks.speedAxis'), size: 44, labelSize: 20 },
      ...(single ? [{ scale: 'l', label: t('tracks.fuelAxis'), side: 1, stroke: FUEL_COLOUR, size: 44, labelSize: 20, grid: { show: false } }] : []),
    ],
  };
}

/** uPlot's columns: the times of every reading of anyone, each employee's speed (and one employee's fuel) at them or a gap. */
function chartData(replay: Replay): uPlot.AlignedData {
  const times = [...new Set(replay.employees.flatMap((e) => e.readings.map((r) => r.timeMs)))].sort((a, b) => a - b);
  const index = new Map(times.map((ms, i) => [ms, i]));
  const column = () => new Array<number | null>(times.length).fill(null);
  const speeds = replay.employees.map((e) => {
    const values = column();
    for (const r of e.readings) values[index.get(r.timeMs)!] = r.speedKmh;
    return values;
  });
  const fuel = replay.employees.length === 1 ? [column()] : [];
  for (const r of replay.employees[0]?.readings ?? []) if (fuel[0]) fuel[0][index.get(r.timeMs)!] = r.fuelLitres;
  return [times.map((ms) => ms / 1000), ...speeds, ...fuel];
}
