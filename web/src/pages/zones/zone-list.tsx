import { zoneColor } from '../../map/base-map';
import type { Zone, ZoneGroup } from '../../types';
import { t } from '../../i18n/i18n';

/** Zones by group, groups by name, "No group" last; a zone naming an unknown group counts as without one. */
export function zonesByGroup(zones: Zone[], groups: ZoneGroup[]): { key: string; name: string; zones: Zone[] }[] {
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  const known = new Set(groups.map((g) => g.zoneGroupID));
  const sections = [...groups].sort(byName).map((g) => ({ key: String(g.zoneGroupID), name: g.name, zones: zones.filter((z) => z.zoneGroupID === g.zoneGroupID) }));
  sections.push({ key: 'none', name: t('zones.noGroup'), zones: zones.filter((z) => z.zoneGroupID == null || !known.has(z.zoneGroupID)) });
  return sections.filter((s) => s.zones.length > 0).map((s) => ({ ...s, zones: [...s.zones].sort(byName) }));
}

/** The side list: a button per zone, so a keyboard selects (and zooms to) a zone with Enter. */
export function ZoneList({ zones, groups, selected, onSelect }: { zones: Zone[]; groups: ZoneGroup[]; selected: number | null; onSelect: (zoneID: number) => void }) {
  const sections = zonesByGroup(zones, groups);
  return (
    <div class="zone-list" role="region" aria-labelledby="zone-list-title">
      <h2 id="zone-list-title" tabIndex={-1}>
        {t('zones.listTitle', { count: zones.length })}
      </h2>
      {zones.length === 0 && <p class="muted">{t('zones.none')}</p>}
      {sections.map((section) => (
        <div key={section.key}>
          <h3 id={`zone-list-group-${section.key}`}>{section.name}</h3>
          <ul aria-labelledby={`zone-list-group-${section.key}`}>
            {section.zones.map((zone) => (
              <li key={zone.zoneID}>
                <button type="button" class="zone-item" aria-current={selected === zone.zoneID ? 'true' : undefined} onClick={() => onSelect(zone.zoneID)}>
                  <span class={zone.enabled === false ? 'swatch off' : 'swatch'} style={{ background: zoneColor(zone.color) }} aria-hidden="true" />
                  <span>{zone.name}</span>
                  {zone.enabled === false && <span class="muted">{t('zones.disabledMark')}</span>}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
