import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../../api';
import { language, t } from '../../i18n/i18n';
import { connectLive } from '../../live-stream';
import type { Alert } from '../../types';
import { readAlertSettings, saveAlertSettings, type AlertSettings } from './alert-settings';
import { playAlertTone } from './alert-tone';

export const ALERTS = '/v6/api/eventManagement/alerts';
/** What the header's panel lists. */
const RECENT = 30;

export interface Alerts {
  /** Unhandled alerts of the account (the server counts up to 1000); null before the stream says. */
  unhandled: number | null;
  /** The newest alerts, newest first. */
  recent: readonly Alert[];
  error: string | null;
  settings: AlertSettings;
  changeSettings(settings: AlertSettings): void;
  /** Marks an alert handled and shows who did; throws what the server said. */
  handle(alert: Alert): Promise<void>;
}

export const AlertsContext = createContext<Alerts | null>(null);

export function useAlertsContext(): Alerts {
  const alerts = useContext(AlertsContext);
  if (!alerts) throw new Error('useAlertsContext outside the signed-in app');
  return alerts;
}

/**
 * The account's alerts for the header: the live stream's `alerts` events say when there are new
 * ones or the unhandled count changed, and the newest are read again then (in the workspace's
 * language). Alerts that arrive while the workspace is open sound and show a notification, as
 * the user's settings say; those already there when it opened do not.
 */
export function useAlerts(userID: number): Alerts {
  const [unhandled, setUnhandled] = useState<number | null>(null);
  const [recent, setRecent] = useState<readonly Alert[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [settings, setSettings] = useState<AlertSettings>(() => readAlertSettings(userID));
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  /** The newest alert id seen; null until the first read (whose alerts are not announced). */
  const newestSeen = useRef<number | null>(null);
  const reading = useRef<Promise<void> | null>(null);
  const again = useRef(false);

  const read = useCallback(() => {
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = api
      .get<{ data: Alert[] }>(`${ALERTS}${query({ count: RECENT, lang: language() })}`)
      .then(({ data }) => {
        const before = newestSeen.current;
        newestSeen.current = Math.max(before ?? 0, data[0]?.alertID ?? 0);
        setRecent(data);
        setError(null);
        if (before !== null) announce(data.filter((a) => a.alertID > before && a.handledAt === null), settingsRef.current);
      })
      .catch((failure: unknown) => setError(t('alerts.loadFailed', { reason: describe(failure) })))
      .finally(() => {
        reading.current = null;
        if (again.current) {
          again.current = false;
          read();
        }
      });
  }, []);

  useEffect(() => {
    const connection = connectLive({
      alerts: (data) => {
        setUnhandled((JSON.parse(data) as { unhandled: number }).unhandled);
        read();
      },
    });
    return () => connection.close();
  }, []);

  const changeSettings = (next: AlertSettings) => {
    setSettings(next);
    saveAlertSettings(userID, next);
  };

  const handle = async (alert: Alert) => {
    await api.post(`${ALERTS}/${alert.alertID}/handled`);
    read();
  };

  return { unhandled, recent, error, settings, changeSettings, handle };
}

function announce(fresh: Alert[], settings: AlertSettings): void {
  if (fresh.length === 0) return;
  if (settings.sound) playAlertTone();
  if (!settings.notifications || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  for (const alert of fresh.slice(0, 3)) {
    try {
      const notification = new Notification(t('alerts.notificationTitle', { what: alert.what }), {
        body: t('alerts.notificationBody', { employee: alert.subscriberName ?? t('alerts.noEmployee'), where: alert.where ?? '' }),
        tag: `lokator-alert-${alert.alertID}`,
      });
      notification.onclick = () => {
        focus();
        if (alert.subscriberID !== null) location.hash = `#/map/${alert.subscriberID}`;
      };
    } catch {
      // Some browsers make notifications only from a service worker: the bell and the sound remain.
    }
  }
}
