import { useLayoutEffect, useRef } from 'preact/hooks';
import { renderSVG } from 'uqr';
import type { DeviceConnection } from '../../api';
import { useSessionInfo } from '../../session';
import { t } from '../../i18n/i18n';

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
}

/**
 * Traccar Client reads its settings from a scanned URL: the server is the URL without its query,
 * `id` the device identifier (its configuration screen takes any of its settings this way).
 */
export function traccarClientUrl(host: string, port: number, deviceKey: string): string {
  return `http://${host}:${port}?id=${encodeURIComponent(deviceKey)}`;
}

/**
 * The device key of an employee, shown once (reads answer only its last characters), with what
 * the phone or the tracker is set to: for Traccar Client the server URL and the key, as text and
 * as a QR code to scan; for a tracker its protocol's host, port and IMEI. The host is the one the
 * coordinator reached this page at.
 */
export function ConnectionSettings({ shown, onDone }: { shown: NewKey; onDone: () => void }) {
  const { devices } = useSessionInfo();
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => heading.current?.focus(), []);
  const host = location.hostname;
  const phone = devices.find((d) => d.protocol === PHONE_PROTOCOL);
  const phonePort = phone?.port ?? 0;
  const protocol = devices.find((d) => d.protocol === shown.protocol) ?? trackerProtocols(devices)[0]!;

  return (
    <section class="connection-settings" aria-labelledby="connection-title">
      <h2 id="connection-title" tabIndex={-1} ref={heading}>
        {t('conn.title', { name: shown.name })}
      </h2>
      <p class="once">
        {t('conn.once')}
      </p>
      {shown.device === 'phone' ? (
        phonePort === 0 ? (
          <p class="error">{t('conn.osmandOff')}</p>
        ) : (
          <div class="phone-settings">
            <dl>
              <dt>{t('conn.serverUrl')}</dt>
              <dd>
                <code>{`http://${host}:${phonePort}`}</code>
              </dd>
              <dt>{t('conn.deviceId')}</dt>
              <dd>
                <code class="device-key">{shown.deviceKey}</code>
              </dd>
            </dl>
            <figure class="qr">
              <div
                class="qr-code"
                role="img"
                aria-label={t('conn.qr')}
                // uqr draws the code as SVG markup: a rect and one path, no script.
                dangerouslySetInnerHTML={{ __html: renderSVG(traccarClientUrl(host, phonePort, shown.deviceKey)) }}
              />
              <figcaption>{t('conn.qrCaption')}</figcaption>
            </figure>
          </div>
        )
      ) : (
        <dl>
          <dt>{t('emp.protocol')}</dt>
          <dd>{protocol.label}</dd>
          <dt>{t('conn.server')}</dt>
          <dd>{protocol.port === 0 ? <span class="error">{t('conn.listenerOff', { setting: protocol.portSetting })}</span> : <code>{`${host}:${protocol.port}`}</code>}</dd>
          <dt>{t('conn.imei')}</dt>
          <dd>
            <code class="device-key">{shown.deviceKey}</code>
          </dd>
        </dl>
      )}
      <button type="button" onClick={onDone}>
        {t('conn.done')}
      </button>
    </section>
  );
}
