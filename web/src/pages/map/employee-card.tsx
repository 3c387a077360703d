import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure, describe } from '../../api';
import type { Employee, Location, SubscriberGroup } from '../../types';
import { formatFullDateTime, formatKm, formatLitres, formatSpeed, formatTimeAgo } from '../../i18n/format';
import { t, untranslated, type PlainKey } from '../../i18n/i18n';
import { LoadFailure, StatusLine } from '../../ui/messages';
import { lastHourLink } from '../tracks/replay-view';
import { useCardDetails } from './card-details';
import { fixTime } from './fix-format';
import { STATE_LABEL, type FleetState, type Today } from './fleet-state';

interface Props {
  employee: Employee;
  position: Location | undefined;
  state: FleetState;
  groups: readonly SubscriberGroup[];
  timeZone: string;
  today: Today;
  nowMs: number;
  onClose: () => void;
}

/** The result codes of "locate now" (POST …/subscriberRequests) and what the card says of each. */
const LOCATE_RESULTS: Record<number, PlainKey> = {
  0: 'map.card.located',
  5: 'map.card.locateOffline',
  585: 'map.card.locateCannot',
  906: 'map.card.locateDisabled',
};

/**
 * One employee at a glance, opened from their marker or row: the state, when their last data came
 * ("5 min ago", kept current), where they are, speed and course, today's distance and the fuel
 * level where the vehicle reports one, and what a dispatcher does next: the day's track, a replay
 * of the last hour, the tasks, a fresh position, the employee's settings.
 */
export function EmployeeCard({ employee, position, state, groups, timeZone, today, nowMs, onClose }: Props) {
  const id = employee.subscriberID;
  const { details, error, reload } = useCardDetails(id, position, today);
  const [locate, setLocate] = useState<{ busy: boolean; message: string }>({ busy: false, message: '' });
  useEffect(() => setLocate({ busy: false, message: '' }), [id]);
  const group = groups.find((each) => each.subscriberGroupID === employee.subscriberGroupID);

  const locateNow = async () => {
    setLocate({ busy: true, message: t('map.card.locating') });
    try {
      const answer = await api.post<{ resultCode: number }>('/v6/api/subscriberManagement/subscriberRequests', { subscriberID: id });
      const said = LOCATE_RESULTS[answer.resultCode];
      setLocate({ busy: false, message: said ? t(said) : t('map.card.locateCode', { code: answer.resultCode }) });
    } catch (failure) {
      const tooOften = failure instanceof ApiFailure && failure.envelope.status === 429;
      setLocate({ busy: false, message: tooOften ? t('map.card.locateTooOften') : t('map.card.locateFailed', { reason: describe(failure) }) });
    }
  };

  return (
    <section class="employee-card" aria-labelledby="employee-card-name" data-subscriber-id={id}>
      <div class="card-head">
        <h2 id="employee-card-name" {...untranslated}>
          {employee.name}
        </h2>
        <button type="button" class="link card-close" aria-label={t('common.close')} onClick={onClose}>
          ×
        </button>
      </div>
      <p class={`card-state state-${state}`}>
        <span class="swatch" aria-hidden="true" />
        {t(STATE_LABEL[state])}
        {group && (
          <span class="card-group" {...untranslated}>
            {' · '}
            {group.name}
          </span>
        )}
      </p>
      <dl class="card-facts">
        <dt>{t('map.card.lastSeen')}</dt>
        <dd>
          {position ? (
            <time dateTime={position.locationDate} title={formatFullDateTime(position.locationDate, timeZone)}>
              {formatTimeAgo(position.locationDate, nowMs)} · {fixTime(position.locationDate, timeZone)}
            </time>
          ) : (
            t('map.noPosition')
          )}
        </dd>
        {position && (
          <>
            <dt>{t('map.card.address')}</dt>
            <dd class="card-address">{details ? (details.address ?? coordinates(position)) : t('map.card.addressLoading')}</dd>
            <dt>{t('map.card.speed')}</dt>
            <dd>
              {formatSpeed(position.velocity)}
              {state === 'moving' && (
                <span class="card-course">
                  {' · '}
                  <span class="course-arrow" aria-hidden="true" style={{ transform: `rotate(${position.angle}deg)` }}>
                    ↑
                  </span>{' '}
                  {t('map.card.course', { direction: compassPoint(position.angle), degrees: position.angle })}
                </span>
              )}
            </dd>
          </>
        )}
        <dt>{t('map.card.distanceToday')}</dt>
        <dd>{details ? (details.distanceKm === null ? t('map.card.none') : formatKm(details.distanceKm)) : '…'}</dd>
        {details?.fuelLitres != null && (
          <>
            <dt>{t('map.card.fuel')}</dt>
            <dd>{formatLitres(details.fuelLitres)}</dd>
          </>
        )}
      </dl>
      <LoadFailure message={error} onRetry={reload} />
      <div class="card-actions">
        <a class="button secondary" href={`#/tracks/${id}/${today.day}`}>
          {t('map.card.track')}
        </a>
        <a class="button secondary" href={lastHourLink(id, timeZone, nowMs)}>
          {t('map.card.replay')}
        </a>
        <a class="button secondary" href={`#/tasks/${id}`}>
          {t('map.card.tasks')}
        </a>
        <button type="button" class="secondary" onClick={locateNow} disabled={locate.busy}>
          {t('map.card.locate')}
        </button>
        <a class="button secondary" href={`#/employees/${id}`}>
          {t('map.card.settings')}
        </a>
      </div>
      <StatusLine class="card-locate" message={locate.message} />
    </section>
  );
}

/** Latitude and longitude to six decimals (about 10 cm) with decimal points, as map sites and navigators take them in either language. */
function coordinates(position: Location): string {
  return `${position.latitude.toFixed(6)}, ${position.longitude.toFixed(6)}`;
}

/** One of the eight points of the compass for a course in degrees clockwise from north. */
function compassPoint(degrees: number): string {
  const points = t('map.card.compass').split(' ');
  return points[Math.round((((degrees % 360) + 360) % 360) / 45) % 8] ?? '';
}
