import type { DeviceProtocolDefinition, HttpDeviceProtocol, TcpDeviceProtocol } from './device-protocol.js';
import { egtsProtocol } from './egts/egts-protocol.js';
import { osmandProtocol } from './osmand/osmand-protocol.js';
import { teltonikaProtocol } from './teltonika/teltonika-protocol.js';
import { wialonIpsProtocol } from './wialon-ips/wialon-ips-protocol.js';

/**
 * The device protocols Lokator speaks, one definition each (device-protocol.ts). Adding one is
 * its folder, its line here and a test of its captured frames: the port setting, the listener,
 * the API's `deviceProtocol` value, the workspace's choice and the docs' table follow from it.
 */
export const deviceProtocols = [osmandProtocol, egtsProtocol, wialonIpsProtocol, teltonikaProtocol] as const;

/** The API's `deviceProtocol` values: `osmand`, `egts`, `wialonIps`, `teltonika`. */
export type DeviceProtocol = (typeof deviceProtocols)[number]['name'];
/** The environment variables of the listeners' ports: `OSMAND_PORT`, `EGTS_PORT`, … */
export type DevicePortSetting = (typeof deviceProtocols)[number]['port']['setting'];

export const deviceProtocolNames: readonly DeviceProtocol[] = deviceProtocols.map((protocol) => protocol.name);

/** The definition of a protocol by its name. */
export function deviceProtocolNamed(name: DeviceProtocol): DeviceProtocolDefinition<DeviceProtocol> {
  return deviceProtocols.find((protocol) => protocol.name === name)!;
}

export const tcpProtocols = deviceProtocols.filter((protocol): protocol is Extract<(typeof deviceProtocols)[number], TcpDeviceProtocol> => protocol.transport === 'tcp');
export const httpProtocols = deviceProtocols.filter((protocol): protocol is Extract<(typeof deviceProtocols)[number], HttpDeviceProtocol> => protocol.transport === 'http');

/** Each protocol's port: the setting's value, or its default where the setting is not given (0: switched off). */
export function devicePorts(settings: Partial<Record<DevicePortSetting, number>>): Record<DeviceProtocol, number> {
  return Object.fromEntries(deviceProtocols.map((protocol) => [protocol.name, settings[protocol.port.setting] ?? protocol.port.default])) as Record<DeviceProtocol, number>;
}

/**
 * What the workspace's Employees tab shows a coordinator for each protocol (the session's
 * `devices`): where a device of it reports, and what its key and password are.
 */
export interface DeviceConnection {
  protocol: DeviceProtocol;
  label: string;
  transport: 'tcp' | 'http';
  /** 0: the listener is switched off. */
  port: number;
  portSetting: DevicePortSetting;
  /** Whether its login carries a device password. */
  password: boolean;
  keyHint: { en: string; ru: string };
}

export function deviceConnections(settings: Partial<Record<DevicePortSetting, number>>): DeviceConnection[] {
  const ports = devicePorts(settings);
  return deviceProtocols.map((protocol) => ({
    protocol: protocol.name,
    label: protocol.label,
    transport: protocol.transport,
    port: ports[protocol.name],
    portSetting: protocol.port.setting,
    password: protocol.password !== null,
    keyHint: { ...protocol.deviceKey.hint },
  }));
}
