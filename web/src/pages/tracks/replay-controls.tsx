import { formatDateTime, formatSpeed } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import type { Replay } from './replay-data';
import { positionAt, REPLAY_SPEEDS } from './replay-motion';

interface Props {
  replay: Replay;
  timeZone: string;
  timeMs: number;
  playing: boolean;
  speed: number;
  onPlay: () => void;
  onPause: () => void;
  onSpeed: (speed: number) => void;
  onTime: (ms: number) => void;
}

/** Play and pause, the speed, and a slider over the span of the data with the time it stands at. */
export function ReplayControls({ replay, timeZone, timeMs, playing, speed, onPlay, onPause, onSpeed, onTime }: Props) {
  const now = formatDateTime(timeMs, timeZone, true);
  const speeds = replay.employees
    .map((e) => {
      const here = positionAt(e.path, timeMs);
      return here ? `${e.name}: ${formatSpeed(here.speedKmh)}` : '';
    })
    .filter(Boolean)
    .join(' · ');
  return (
    <div class="replay-controls">
      <button type="button" class="replay-play" onClick={playing ? onPause : onPlay}>
        {playing ? t('replay.pause') : t('replay.play')}
      </button>
      <label class="replay-speed">
        <span id="replay-speed-label">{t('replay.speed')}</span>
        <select aria-labelledby="replay-speed-label" value={String(speed)} onChange={(e) => onSpeed(Number(e.currentTarget.value))}>
          {REPLAY_SPEEDS.map((n) => (
            <option key={n} value={String(n)}>
              {t('replay.times', { n })}
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        class="replay-slider"
        aria-label={t('replay.slider')}
        aria-valuetext={now}
        min={replay.startMs}
        max={Math.max(replay.endMs, replay.startMs + 1000)}
        step={1000}
        value={Math.round(timeMs)}
        onInput={(e) => onTime(Number(e.currentTarget.value))}
      />
      <output class="replay-time" aria-live="off">
        {now}
      </output>
      <p class="replay-speeds muted">{speeds}</p>
    </div>
  );
}
