import { t } from '../../i18n/i18n';
import { Field } from '../../ui/field';
import { ROLES, type GroupName, type Role } from './people-model';

const roleNames = { admin: 'people.role.admin', dispatcher: 'people.role.dispatcher', viewer: 'people.role.viewer' } as const;
const roleHints = { admin: 'people.roleHint.admin', dispatcher: 'people.roleHint.dispatcher', viewer: 'people.roleHint.viewer' } as const;

/** A role's name in the workspace's language. */
export function roleName(role: Role): string {
  return t(roleNames[role]);
}

/** The role of a user or token, with what each may do. */
export function RoleSelect({ id, value, onChange }: { id: string; value: Role; onChange: (role: Role) => void }) {
  return (
    <Field id={id} label={t('people.role')} hint={t(roleHints[value])}>
      {(control) => (
        <select {...control} value={value} onChange={(e) => onChange(e.currentTarget.value as Role)}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {roleName(role)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The employee groups a user or token is limited to: none ticked is the whole account. */
export function ScopeField({ id, groups, value, onChange }: { id: string; groups: GroupName[]; value: number[]; onChange: (ids: number[]) => void }) {
  const toggle = (groupID: number, on: boolean) => onChange(on ? [...value, groupID] : value.filter((other) => other !== groupID));
  return (
    <fieldset id={id} class="scope">
      <legend>{t('people.scope')}</legend>
      <p class="hint">{t('people.scopeHint')}</p>
      {groups.length === 0 && <p class="muted">{t('people.noGroups')}</p>}
      {groups.map((group) => (
        <label key={group.subscriberGroupID} class="check">
          <input type="checkbox" checked={value.includes(group.subscriberGroupID)} onChange={(e) => toggle(group.subscriberGroupID, e.currentTarget.checked)} />
          {group.name}
        </label>
      ))}
    </fieldset>
  );
}

/** A scope in words: "All employees", or the groups' names. */
export function scopeText(ids: number[] | null, groups: GroupName[]): string {
  if (ids === null) return t('people.wholeAccount');
  return ids.map((id) => groups.find((g) => g.subscriberGroupID === id)?.name ?? `#${id}`).join(', ');
}

/** What is sent for a scope: null when no group is ticked. */
export function scopeOf(ids: number[]): number[] | null {
  return ids.length === 0 ? null : [...ids].sort((a, b) => a - b);
}
