import { RULE_KINDS } from '../../generated/kinds';
import { t } from '../../i18n/i18n';

/** A rule kind's name in the workspace's words. */
export function kindLabel(kind: number | string): string {
  const view = RULE_KINDS.find((k) => String(k.kind) === String(kind));
  return view ? t(view.label) : t('rules.kindN', { kind: String(kind) });
}
