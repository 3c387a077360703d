import { useLayoutEffect, useRef } from 'preact/hooks';
import { renderSVG } from 'uqr';
import type { DeviceConnection } from '../../api';
import { useSessionInfo } from '../../session';
import type { Employee } from '../../types';
import { formatDateTime } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { CopyPrint } from './copy-print';
import { deviceHost, hostPort, isUnreachableHost } from './device-address';

/** The protocol Traccar Client and OsmAnd speak: a phone's (an employee whose deviceProtocol is null or this). */
export const PHONE_PROTOCOL = 'osmand';

/** The protocols a tracker may speak, as the server lists them: every one but the phone's. */
export function trackerProtocols(devices: readonly DeviceConnection[]): DeviceConnection[] {
  return devices.filter((d) => d.protocol !== PHONE_PROTOCOL);
}

/** What a device needs to report as this employee: the key, just set, and how it connects. */
export interface NewKey {
  subscriberID: number;
  name: string;
  deviceKey: string;
  device: 'phone' | 'tracker';
  /** The tracker's deviceProtocol (for a phone: the one the form had chosen, unused). */
  protocol: string;
  hasPassword: boolean;
}

/**
 * Traccar Client reads its settings from a scanned URL: the server is the URL without its query,
 * `id` the device identifier (its configuration screen takes any of its settings this way).
 */
/** The employee's app, signed in by the key in the fragment (a fragment never reaches a server's log). */
export function employeeAppUrl(origin: string, deviceKey: string): string {
  return `${new URL(origin).origin}/m/#key=${encodeURIComponent(deviceKey)}`;
}

export function traccarClientUrl(host: string, port: number, deviceKey: string): string {
  return `http://${host}:${port}?id=${encodeURIComponent(deviceKey)}`;
}

/** The device whose connection settings are shown. */
export interface ShownDevice {
  name: string;
  device: 'phone' | 'tracker';
  /** The tracker's deviceProtocol; ignored for a phone. */
  protocol: string | null;
  /** The whole key, when it was just set (only then: reads give its last characters). */
  deviceKey: string | null;
  keyHint: string | null;
  hasPassword: boolean;
  status: Employee['deviceStatus'] | null;
}

/** The connection settings of a stored employee, as its page shows them every time. */
export function shownDeviceOf(employee: Employee): ShownDevice {
  const tracker = employee.deviceType === 'tracker';
  return {
    name: employee.name,
    device: tracker ? 'tracker' : 'phone',
    protocol: employee.deviceProtocol,
    deviceKey: null,
    keyHint: employee.deviceKeyHint,
    hasPassword: employee.hasDevicePassword,
    status: employee.deviceStatus,
  };
}

/**
 * What the phone or the tracker is set to: for Traccar Client the server URL and the key, as text
 * and (when the whole key is at hand) as a QR code to scan; for a tracker its protocol's host,
 * port and identifier. The host is PUBLIC_URL's, else the one the coordinator reached this page
 * at, with a warning when no device could reach that. `once`: the key was just set and is shown
 * whole this one time, with a button to go on.
 */
export function ConnectionSettings({ shown, once, onDone }: { shown: ShownDevice; once?: boolean; onDone?: () => void }) {
  const { devices, publicUrl, account } = useSessionInfo();
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    if (once) heading.current?.focus();
  }, []);
  const { host, fromPublicUrl } = deviceHost(publicUrl, location.hostname);
  const tracker = shown.device === 'tracker';
  const protocol = tracker ? (devices.find((d) => d.protocol === shown.protocol) ?? trackerProtocols(devices)[0]!) : devices.find((d) => d.protocol === PHONE_PROTOCOL);
  const port = protocol?.port ?? 0;
  const identifier = shown.deviceKey ?? shown.keyHint;
  const serverUrl = `http://${hostPort(host, port)}`;
  const lines = [
    t('conn.title', { name: shown.name }),
    tracker ? `${t('emp.protocol')}: ${protocol?.label ?? ''}` : `${t('emp.device')}: ${t('emp.phoneApp')}`,
    tracker ? `${t('conn.server')}: ${hostPort(host, port)}` : `${t('conn.serverUrl')}: ${serverUrl}`,
    ...(identifier ? [`${tracker ? t('conn.imei') : t('conn.deviceId')}: ${identifier}`] : []),
  ];
  const date = (value: string | null | undefined) => (value ? formatDateTime(value, account.timeZone, true) : t('conn.never'));

  return (
    <section class="connection-settings" aria-labelledby="connection-title">
      {once ? (
        <h2 id="connection-title" tabIndex={-1} ref={heading}>
          {t('conn.title', { name: shown.name })}
        </h2>
      ) : (
        <h2 id="connection-title">{t('conn.heading')}</h2>
      )}
      {!fromPublicUrl && isUnreachableHost(host) && (
        <p class="warning" role="note">
          {t('conn.unreachable', { host })}
        </p>
      )}
      {once && <p class="once">{t('conn.once')}</p>}
      {port === 0 ? (
        <p class="error">{tracker ? t('conn.listenerOff', { setting: protocol?.portSetting ?? '' }) : t('conn.osmandOff')}</p>
      ) : (
        <div class="phone-settings">
          <dl>
            <dt>{t('emp.device')}</dt>
            <dd>{tracker ? `${t('emp.tracker')}, ${protocol?.label ?? ''}` : t('emp.phoneApp')}</dd>
            {tracker ? (
              <>
                <dt>{t('conn.server')}</dt>
                <dd>
                  <code class="server-address">{hostPort(host, port)}</code>
                </dd>
              </>
            ) : (
              <>
                <dt>{t('conn.serverUrl')}</dt>
                <dd>
                  <code class="server-url">{serverUrl}</code>
                </dd>
              </>
            )}
            <dt>{tracker ? t('conn.imei') : t('conn.deviceId')}</dt>
            <dd>{identifier ? <code class="device-key">{identifier}</code> : t('conn.noKey')}</dd>
            {tracker && protocol?.password && (
              <>
                <dt>{t('emp.devicePassword')}</dt>
                <dd>{shown.hasPassword ? t('conn.passwordSet') : t('conn.passwordNone')}</dd>
              </>
            )}
            {shown.status && (
              <>
                <dt>{t('conn.lastData')}</dt>
                <dd class="last-data">{date(shown.status.lastDataDate)}</dd>
                <dt>{t('conn.lastConnection')}</dt>
                <dd class="last-connection">
                  {shown.status.lastConnectionDate ? t('conn.connectedFrom', { date: date(shown.status.lastConnectionDate), address: shown.status.lastAddress ?? '' }) : t('conn.never')}
                </dd>
              </>
            )}
          </dl>
          {!tracker && shown.deviceKey && (
            <figure class="qr">
              <div
                class="qr-code app-qr"
                role="img"
                aria-label={t('conn.appQr')}
                dangerouslySetInnerHTML={{ __html: renderSVG(employeeAppUrl(publicUrl ?? location.origin, shown.deviceKey)) }}
              />
              <figcaption>{t('conn.appQrCaption')}</figcaption>
            </figure>
          )}
          {!tracker && shown.deviceKey && (
            <figure class="qr">
              <div
                class="qr-code"
                role="img"
                aria-label={t('conn.qr')}
                // uqr draws the code as SVG markup: a rect and one path, no script.
                dangerouslySetInnerHTML={{ __html: renderSVG(traccarClientUrl(host, port, shown.deviceKey)) }}
              />
              <figcaption>{t('conn.qrCaption')}</figcaption>
            </figure>
          )}
        </div>
      )}
      {!tracker && !shown.deviceKey && shown.keyHint && <p class="muted">{t('conn.qrWithNewKey')}</p>}
      <CopyPrint text={lines.join('\n')} />
      {onDone && (
        <button type="button" onClick={onDone}>
          {t('conn.done')}
        </button>
      )}
    </section>
  );
}
