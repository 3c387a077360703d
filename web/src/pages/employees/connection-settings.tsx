import { useLayoutEffect, useRef } from 'preact/hooks';
import { renderSVG } from 'uqr';
import { useSessionInfo } from '../../session';

export type TrackerProtocol = 'egts' | 'wialonIps' | 'teltonika';

export const PROTOCOLS: { value: TrackerProtocol; label: string; setting: string }[] = [
  { value: 'egts', label: 'EGTS', setting: 'EGTS_PORT' },
  { value: 'wialonIps', label: 'Wialon IPS', setting: 'WIALON_IPS_PORT' },
  { value: 'teltonika', label: 'Teltonika', setting: 'TELTONIKA_PORT' },
];

/** What a device needs to report as this employee: the key, just set, and how it connects. */
export interface NewKey {
  subscriberID: number;
  name: string;
  deviceKey: string;
  device: 'phone' | 'tracker';
  protocol: TrackerProtocol;
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
  const protocol = PROTOCOLS.find((p) => p.value === shown.protocol) ?? PROTOCOLS[0]!;
  const trackerPort = devices[protocol.value];

  return (
    <section class="connection-settings" aria-labelledby="connection-title">
      <h2 id="connection-title" tabIndex={-1} ref={heading}>
        Connection settings for {shown.name}
      </h2>
      <p class="once">
        Write the device key down or set the device now: it is shown only this once. A lost key is replaced by setting a new one.
      </p>
      {shown.device === 'phone' ? (
        devices.osmand === 0 ? (
          <p class="error">The OsmAnd listener for phones is switched off on this server (OSMAND_PORT=0).</p>
        ) : (
          <div class="phone-settings">
            <dl>
              <dt>Server URL</dt>
              <dd>
                <code>{`http://${host}:${devices.osmand}`}</code>
              </dd>
              <dt>Device identifier (device key)</dt>
              <dd>
                <code class="device-key">{shown.deviceKey}</code>
              </dd>
            </dl>
            <figure class="qr">
              <div
                class="qr-code"
                role="img"
                aria-label={`QR code with the server URL and device key for Traccar Client`}
                // uqr draws the code as SVG markup: a rect and one path, no script.
                dangerouslySetInnerHTML={{ __html: renderSVG(traccarClientUrl(host, devices.osmand, shown.deviceKey)) }}
              />
              <figcaption>In Traccar Client, scan this code from the settings screen, or type the server URL and the device identifier.</figcaption>
            </figure>
          </div>
        )
      ) : (
        <dl>
          <dt>Protocol</dt>
          <dd>{protocol.label}</dd>
          <dt>Server</dt>
          <dd>{trackerPort === 0 ? <span class="error">this listener is switched off ({protocol.setting}=0)</span> : <code>{`${host}:${trackerPort}`}</code>}</dd>
          <dt>IMEI (device key)</dt>
          <dd>
            <code class="device-key">{shown.deviceKey}</code>
          </dd>
        </dl>
      )}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </section>
  );
}
