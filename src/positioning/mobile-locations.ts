import { Type, type Static } from 'typebox';
import type { Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import type { Database } from '../store/database.js';
import { pointKey, type AddressResolver } from './address-resolver.js';
import { Location, type LocationListQuery } from './location-schema.js';
import { toLocation, type LocationService } from './location-service.js';
import type { LocationRow } from './location-store.js';

/**
 * A position of the mobile positioning routes: every field the original service's mobile
 * locations carry (`locationDate`, `subscriberID`, `state`, `source`, `locationID`,
 * `requestDate`, `address`, `longitude`, `latitude`), beside those of interface 2.1, so one client
 * reads either list. Clients index these fields directly (`loc['state']`): each is always present.
 */
export const MobileLocation = Type.Object({
  ...Location.properties,
  state: Type.Null({
    description:
      'the state of a network locate in the original service (there 4 marks the last known position, given when a fresh one could not be had). ' +
      'Lokator does not locate through the network: each fix is a position the device itself determined, so there is no such state; always null, never 4',
  }),
  source: Type.Null({ description: 'how the original service located the phone; Lokator does not record which device path brought a fix: always null' }),
  requestDate: Type.String({ description: 'when the fix reached Lokator (the moment it was "requested"), in the account’s time zone; at or after locationDate for a live fix, later for an upload' }),
  address: Type.Union([Type.String(), Type.Null()], {
    description: 'the name of the enabled zone containing the point, else of the account’s nearest map object within 200 m, else null (no geocoder is asked, for a page of 200)',
  }),
});
export type MobileLocation = Static<typeof MobileLocation>;

/** The fixes in the mobile positioning routes' shape (docs/integrators/clients.md, "Mobile positioning"). */
export class MobileLocations {
  constructor(
    private readonly database: Database,
    private readonly locations: LocationService,
    private readonly addresses: AddressResolver,
  ) {}

  async list(account: Account, query: LocationListQuery & { offset?: number }): Promise<MobileLocation[]> {
    return this.shaped(account, await this.locations.listRows(account, query));
  }

  async get(account: Account, locationID: number): Promise<MobileLocation> {
    const [location] = await this.shaped(account, [await this.locations.getRow(account, locationID)]);
    return location!;
  }

  private async shaped(account: Account, rows: LocationRow[]): Promise<MobileLocation[]> {
    const places = await this.addresses.placeNames(this.database.db, account.id, rows);
    return rows.map((row) => ({
      ...toLocation(row, account.timeZone),
      state: null,
      source: null,
      requestDate: formatDateTime(row.received_at, account.timeZone),
      address: places.get(pointKey(row.latitude, row.longitude)) ?? null,
    }));
  }
}
