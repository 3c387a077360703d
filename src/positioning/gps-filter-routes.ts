import { Type, type Static } from 'typebox';
import type { AccountSettingsWriter } from '../accounts/accounts.js';
import { described, withExamples } from '../http/examples.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { defaultGpsFilterSettings, gpsFilterSettingsOf } from './pipeline/fix-filter.js';

const tags = ['Account management'];
const d = defaultGpsFilterSettings;
const GpsFilterView = Type.Object({
  zeroCoordinates: Type.Boolean({ description: `set aside fixes at exactly (0, 0) (default ${d.zeroCoordinates})` }),
  duplicates: Type.Boolean({ description: `set aside a fix at the same instant as the last accepted one (default ${d.duplicates})` }),
  maxAccuracyM: Type.Number({ minimum: 0, maximum: 1_000_000, description: `set aside a fix less accurate than this, metres, where it says (default ${d.maxAccuracyM}; 0: off)` }),
  maxSpeedKmh: Type.Number({ minimum: 0, maximum: 100_000, description: `set aside a fix reachable from the last accepted one only faster than this, km/h (default ${d.maxSpeedKmh}; 0: off)` }),
  confirmFixes: Type.Integer({ minimum: 0, maximum: 1000, description: `this many far fixes in a row that agree are accepted as a new place (default ${d.confirmFixes}; 0: never)` }),
});
const GpsFilterChange = withExamples(Type.Partial(GpsFilterView), { maxAccuracyM: 100, maxSpeedKmh: 200 });
type GpsFilterChange = Static<typeof GpsFilterChange>;

/**
 * The account's GPS filter (docs/integrators/gps-filtering.md): what it is in effect, and the account's own
 * choice of its rules. An extension of the interface, like the account's retention.
 */
export function gpsFilterRoutes(accounts: AccountSettingsWriter) {
  return async (api: Api) => {
    const path = '/accountManagement/gpsFilter';

    api.get(
      path,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'The GPS filter in effect for this account',
          description:
            'The rules that set aside implausible fixes before they make tracks, events and statistics: the account’s own choices, the defaults ' +
            'for the rest. A fix set aside is still stored and listed, with `isValid: false`.',
          response: { 200: described(withExamples(GpsFilterView, { ...d, maxAccuracyM: 100, maxSpeedKmh: 200 }), 'the rules in effect'), 401: ErrorBody },
        },
      },
      async (request) => gpsFilterSettingsOf(request.principal.account.settings.gpsFilter),
    );

    api.put(
      path,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Set this account’s GPS filter',
          description: 'Rules left out take their defaults. Applies to fixes processed from then on, and to any period recomputed for late fixes.',
          body: GpsFilterChange,
          response: { 204: NoContent, 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request, reply) => {
        await accounts.changeSettings(request.principal.account.id, { gpsFilter: ownRules(request.body) });
        return reply.code(204).send(null);
      },
    );
  };
}

/** Only the rules themselves: other fields of the body are ignored, not stored (CONTRACT §1). */
function ownRules(body: GpsFilterChange): Record<string, number | boolean> {
  const rules: Record<string, number | boolean> = {};
  for (const name of Object.keys(defaultGpsFilterSettings) as (keyof GpsFilterChange)[]) {
    const value = body[name];
    if (value !== undefined) rules[name] = value;
  }
  return rules;
}
