import { Type } from 'typebox';
import type { ZoneIndex, ZoneReference } from '../../geozones/geozones.js';
import { missingField } from '../../http/errors.js';
import { Id } from '../../http/list-params.js';
import { FixZones } from '../../positioning/positioning.js';
import { at, derivedFrom, type Emit, type SignalFix } from '../signal-types.js';
import { defineSignalKind, idList } from './rule-kind.js';

/** The zone signal's own fields of the body, in order. */
const BODY_FIELDS = ['zoneID', 'zoneName', 'zoneEventType'] as const;

export interface ZoneRule {
  id: number;
  zoneIDs: readonly number[];
  zoneGroupIDs: readonly number[];
  onEntry: boolean;
  onExit: boolean;
}

/** How far outside a zone a fix must be before it counts as having left it (GPS jitter of a parked vehicle is less). */
export { EXIT_MARGIN_M } from '../../positioning/positioning.js';

export interface ZoneSignalState {
  /** What the rules watched when membership was last taken (a hash): a change re-takes it without signals. */
  scope: string;
  /** Watched zones the subscriber is in: `[zoneID, latitude, longitude]` of its latest fix inside. */
  inside: [number, number, number][];
}

/**
 * Zone entry and exit (6.3 type 2) for the zones the rules name (`zoneIDs`, or every zone of
 * `zoneGroupIDs`), per zone, with `zoneID`, `zoneName` and `zoneEventType` (1 entry, 2 exit).
 *
 * Boundary rule (hysteresis): a fix is in a zone by the containment rule of CONTRACT §3 (even-odd,
 * boundary inside), and entering is the first fix in it. Leaving takes a fix outside the zone
 * whose surroundings are clear of it too: every point `EXIT_MARGIN_M` and half that away in the
 * eight compass directions is outside. So a parked vehicle whose fixes scatter across a boundary
 * enters once and does not leave, and a vehicle driving out leaves within a few tens of metres.
 *
 * Nothing is invented: the first fix, and the first after the watched zones changed (a rule
 * added, edited or removed), only take membership; a zone that is disabled, deleted or moved away
 * from where the subscriber was last seen in it is forgotten without an exit. The index is the
 * account's as of the batch, so a zone change counts from the next batch.
 */
interface Watched {
  zoneIds: Set<number>;
  groupIds: Set<number>;
  scope: string;
}
const watchedBy = new WeakMap<readonly ZoneRule[], Watched>();

export class ZoneSignal {
  private readonly scope: string;
  private readonly zoneIds: Set<number>;
  private readonly groupIds: Set<number>;

  constructor(
    readonly state: ZoneSignalState,
    private readonly rules: readonly ZoneRule[],
    private readonly index: ZoneIndex,
  ) {
    ({ zoneIds: this.zoneIds, groupIds: this.groupIds, scope: this.scope } = derivedFrom(watchedBy, rules, watchedZones));
  }

  static initialState(): ZoneSignalState {
    return { scope: '', inside: [] };
  }

  /** `shared`: the fix's zones as the pipeline looked them up (the same index); looked up here without it. */
  step(fix: SignalFix, emit: Emit, shared: FixZones | null = null): void {
    const { state } = this;
    const zones = shared ?? FixZones.at(this.index, fix.latitude, fix.longitude);
    const hits = zones.hits.filter((zone) => this.watched(zone));
    if (state.scope !== this.scope) {
      state.scope = this.scope;
      state.inside = hits.map((zone) => [zone.zoneID, fix.latitude, fix.longitude]);
      return;
    }
    const inside: ZoneSignalState['inside'] = [];
    for (const entry of state.inside) {
      const [zoneID, lat, lon] = entry;
      if (hits.some((zone) => zone.zoneID === zoneID)) continue;
      const zone = this.zoneAt(zoneID, lat, lon);
      if (!zone) continue;
      if (zones.clearOf(zoneID)) this.report(zone, 2, fix, emit);
      else inside.push(entry);
    }
    for (const zone of hits) {
      if (!state.inside.some(([id]) => id === zone.zoneID)) this.report(zone, 1, fix, emit);
      inside.push([zone.zoneID, fix.latitude, fix.longitude]);
    }
    state.inside = inside.sort((a, b) => a[0] - b[0]);
  }

  private watched(zone: ZoneReference): boolean {
    return this.zoneIds.has(zone.zoneID) || (zone.zoneGroupID !== null && this.groupIds.has(zone.zoneGroupID));
  }

  private report(zone: ZoneReference, zoneEventType: 1 | 2, fix: SignalFix, emit: Emit): void {
    for (const rule of this.rules) {
      if (!(zoneEventType === 1 ? rule.onEntry : rule.onExit)) continue;
      if (!rule.zoneIDs.includes(zone.zoneID) && (zone.zoneGroupID === null || !rule.zoneGroupIDs.includes(zone.zoneGroupID))) continue;
      emit({
        kind: 2,
        ruleId: rule.id,
        detail: `${zone.zoneID}:${zoneEventType}`,
        ...at(fix),
        fields: { zoneID: zone.zoneID, zoneName: zone.name, zoneEventType } satisfies Record<(typeof BODY_FIELDS)[number], unknown>,
      });
    }
  }

  /** The zone as the index has it at the subscriber's latest fix inside, if it still contains that point and is still watched. */
  private zoneAt(zoneID: number, latitude: number, longitude: number): ZoneReference | null {
    const zone = this.index.findZonesContaining(latitude, longitude).find((z) => z.zoneID === zoneID);
    return zone && this.watched(zone) ? zone : null;
  }
}

function watchedZones(rules: readonly ZoneRule[]): Watched {
  const zoneIds = new Set(rules.flatMap((rule) => rule.zoneIDs));
  const groupIds = new Set(rules.flatMap((rule) => rule.zoneGroupIDs));
  const sorted = (ids: Set<number>) => [...ids].sort((a, b) => a - b).join(',');
  return { zoneIds, groupIds, scope: fnv1a(`${sorted(zoneIds)}/${sorted(groupIds)}`) };
}

/** 32-bit FNV-1a, in hex: a short name for a long list of ids in the state. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16);
}

/** Zone entry and exit (6.3 type 2). */
export const zoneSignal = defineSignalKind({
  kind: 2,
  summary: '2 zone entry/exit',
  parameters: Type.Object(
    {
      zoneIDs: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
      zoneGroupIDs: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
      on: Type.Union([Type.Literal('entry'), Type.Literal('exit'), Type.Literal('both')]),
    },
    { additionalProperties: false },
  ),
  checkParameters(parameters) {
    if (!(parameters.zoneIDs as unknown[] | undefined)?.length && !(parameters.zoneGroupIDs as unknown[] | undefined)?.length) throw missingField('parameters.zoneIDs');
  },
  bodyFields: BODY_FIELDS,
  rule: (id, p): ZoneRule => ({ id, zoneIDs: idList(p.zoneIDs), zoneGroupIDs: idList(p.zoneGroupIDs), onEntry: p.on !== 'exit', onExit: p.on !== 'entry' }),
  detector: {
    stateKey: 'zones',
    uses: ['zoneIndex'],
    initialState: ZoneSignal.initialState,
    start(state: ZoneSignalState, rules, { zoneIndex }) {
      if (!zoneIndex) return null;
      const unit = new ZoneSignal(state, rules, zoneIndex);
      // The pipeline's lookup is of the same index (the account's as of the batch): asked once per fix.
      return (fix, moment, emit) => unit.step(fix, emit, moment.zones?.index === zoneIndex ? moment.zones : null);
    },
  },
  message: {
    headline(body, words) {
      if (body.zoneName === undefined || body.zoneName === null) return words.zoneEvent;
      return body.zoneEventType === 2 ? words.zoneLeft(String(body.zoneName)) : words.zoneEntered(String(body.zoneName));
    },
  },
  workspace: { label: 'rules.kind2', editor: 'zones' },
});
