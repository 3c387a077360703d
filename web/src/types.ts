/** The v6 shapes the workspace reads (interface section 2, CONTRACT §4). Only the fields it uses. */

export interface Employee {
  subscriberID: number;
  name: string;
  externalSubscriberID?: string | null;
  phone?: string | null;
  isActive?: boolean;
  isOnline?: boolean;
}

export interface Location {
  locationID?: number;
  subscriberID: number;
  locationDate: string;
  isValid: boolean;
  latitude: number;
  longitude: number;
  angle: number;
  velocity: number;
}

export interface Zone {
  zoneID: number;
  name: string;
  color?: number | null;
  enabled?: boolean;
  zoneGroupID?: number | null;
  comment?: string | null;
  bounds: { longitude: number; latitude: number }[];
}

export interface ZoneGroup {
  zoneGroupID: number;
  name: string;
  parentID?: number | null;
}
