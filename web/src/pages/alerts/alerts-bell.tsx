import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n/i18n';
import { useNow } from '../map/use-now';
import { AlertItem } from './alert-item';
import { useAlertsContext } from './use-alerts';
import './alerts.css';

const CLOCK_MS = 30_000;

/**
 * The header's bell: the unhandled count, and a panel of the newest alerts with the sound and
 * notification switches. Turning notifications on asks the browser's permission.
 */
export function AlertsBell() {
  const alerts = useAlertsContext();
  const [open, setOpen] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const nowMs = useNow(CLOCK_MS);
  const count = alerts.unhandled ?? 0;
  const label = count > 0 ? t('alerts.bell', { count }) : t('alerts.bellNone');

  // Another page (a tab, "Show on map") closes the panel.
  useEffect(() => {
    const away = () => setOpen(false);
    addEventListener('hashchange', away);
    return () => removeEventListener('hashchange', away);
  }, []);

  useEffect(() => {
    if (!open) return;
    const away = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    addEventListener('keydown', away);
    return () => removeEventListener('keydown', away);
  }, [open]);

  const switchNotifications = async (on: boolean) => {
    setBlocked(false);
    if (on && typeof Notification !== 'undefined' && Notification.permission !== 'granted') {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setBlocked(true);
        alerts.changeSettings({ ...alerts.settings, notifications: false });
        return;
      }
    }
    alerts.changeSettings({ ...alerts.settings, notifications: on });
  };

  return (
    <div class="alerts-bell">
      <button type="button" class="bell" aria-expanded={open} aria-controls="alerts-panel" aria-label={label} title={label} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">🔔</span>
        {count > 0 && (
          <span class="bell-count" aria-hidden="true">
            {count >= 1000 ? '999+' : count}
          </span>
        )}
      </button>
      {open && (
        <div id="alerts-panel" class="alerts-panel" role="region" aria-label={t('alerts.panel')}>
          <h2>{t('alerts.panel')}</h2>
          {alerts.error && (
            <p role="alert" class="error small">
              {alerts.error}
            </p>
          )}
          {alerts.recent.length === 0 && !alerts.error && <p class="muted">{t('alerts.none')}</p>}
          <ul class="alert-list">
            {alerts.recent.map((alert) => (
              <AlertItem key={alert.alertID} alert={alert} nowMs={nowMs} onHandle={alerts.handle} />
            ))}
          </ul>
          <div class="alerts-settings">
            <label>
              <input type="checkbox" checked={alerts.settings.sound} onChange={(e) => alerts.changeSettings({ ...alerts.settings, sound: e.currentTarget.checked })} />{' '}
              {t('alerts.sound')}
            </label>
            <label>
              <input type="checkbox" checked={alerts.settings.notifications} onChange={(e) => void switchNotifications(e.currentTarget.checked)} />{' '}
              {t('alerts.notifications')}
            </label>
            {blocked && <p class="error small">{t('alerts.notificationsBlocked')}</p>}
            <p class="muted small">{t('alerts.settingsNote')}</p>
          </div>
          <a href="#/alerts" onClick={() => setOpen(false)}>
            {t('alerts.all')}
          </a>
        </div>
      )}
    </div>
  );
}
