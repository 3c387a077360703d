import { useEffect, useState } from 'preact/hooks';
import { api, describe } from '../../api';
import type { Zone, ZoneGroup } from '../../types';
import { ErrorAlert } from '../../ui/messages';
import { CheckList, FieldSet, TextField, type FormPartProps } from './form-fields';
import { kindView, type ZoneTrigger } from './rule-model';
import { t, type PlainKey } from '../../i18n/i18n';

/** The parameters of the draft's kind (CONTRACT §4); some kinds have none. */
export function KindParameters(part: FormPartProps) {
  const { draft, errors, change } = part;
  if (draft.kind === null) return null;
  const kind = kindView(draft.kind);
  if (kind?.editor === 'zones') return <ZoneParameters {...part} />;
  const numbers = kind?.numbers.length ? kind.numbers : null;
  return (
    <fieldset>
      <legend>{t('rules.parameters')}</legend>
      {numbers ? (
        numbers.map((parameter) => (
          <TextField
            key={parameter.key}
            field={`parameters.${parameter.key}`}
            label={t(parameter.label)}
            type="number"
            step={parameter.integer ? '1' : 'any'}
            inputMode={parameter.integer && parameter.min >= 0 ? 'numeric' : 'decimal'}
            value={draft.numbers[parameter.key] ?? ''}
            hint={parameter.hint && t(parameter.hint)}
            errors={errors}
            onValue={(value) => change({ numbers: { ...draft.numbers, [parameter.key]: value } }, `parameters.${parameter.key}`)}
          />
        ))
      ) : (
        <p class="muted">{t('rules.noParameters')}</p>
      )}
    </fieldset>
  );
}

const TRIGGERS: { value: ZoneTrigger; label: PlainKey }[] = [
  { value: 'entry', label: 'rules.onEntry' },
  { value: 'exit', label: 'rules.onExit' },
  { value: 'both', label: 'rules.onBoth' },
];

/** Zone entry/exit: zones and zone groups of the account, and which crossings fire. */
function ZoneParameters({ draft, errors, change }: FormPartProps) {
  const [zones, setZones] = useState<Zone[] | null>(null);
  const [groups, setGroups] = useState<ZoneGroup[] | null>(null);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    Promise.all([api.get<Zone[]>('/v6/api/zoneManagement/zones?withCustomTemplateItems=false'), api.get<ZoneGroup[]>('/v6/api/zoneManagement/zoneGroups')])
      .then(([z, g]) => {
        setZones(z);
        setGroups(g);
      })
      .catch((error: unknown) => setFailure(t('rules.zonesFailed', { reason: describe(error) })));
  }, []);

  const field = 'parameters.zoneIDs';
  const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <FieldSet
      field={field}
      legend={t('rules.parameters')}
      errors={errors}
      hint={t('rules.zonesHint')}
    >
      <ErrorAlert message={failure} />
      {zones === null || groups === null ? (
        !failure && <p class="muted">{t('rules.loadingZones')}</p>
      ) : (
        <div class="zone-lists">
          {zones.length === 0 ? (
            <p class="muted">{t('rules.noZones')}</p>
          ) : (
            <CheckList
              field="parameters.zones"
              legend={t('rules.zones')}
              items={byName(zones).map((z) => ({ value: z.zoneID, label: z.name }))}
              checked={draft.zoneIDs}
              errors={errors}
              onChange={(zoneIDs) => change({ zoneIDs }, field)}
            />
          )}
          {groups.length > 0 && (
            <CheckList
              field="parameters.zoneGroupIDs"
              legend={t('rules.zoneGroups')}
              items={byName(groups).map((g) => ({ value: g.zoneGroupID, label: g.name }))}
              checked={draft.zoneGroupIDs}
              errors={errors}
              onChange={(zoneGroupIDs) => change({ zoneGroupIDs }, field, 'parameters.zoneGroupIDs')}
            />
          )}
        </div>
      )}
      <FieldSet field="parameters.on" legend={t('rules.fires')} errors={errors}>
        {TRIGGERS.map((trigger) => (
          <label class="inline" key={trigger.value}>
            <input type="radio" name="zone-on" checked={draft.zoneOn === trigger.value} onChange={() => change({ zoneOn: trigger.value }, 'parameters.on')} />
            {t(trigger.label)}
          </label>
        ))}
      </FieldSet>
    </FieldSet>
  );
}
