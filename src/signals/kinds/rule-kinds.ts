import { arrivalSignal } from './arrival-signal.js';
import { employeeChanges } from './employee-changes.js';
import { loadingSignal } from './loading-signal.js';
import { powerSignal } from './power-signal.js';
import type { ChangeFeedDefinition, RuleKindDefinition, SignalKindDefinition } from './rule-kind.js';
import { sensorSignal } from './sensor-signal.js';
import { speedSignal } from './speed-signal.js';
import { stopSignal } from './stop-signal.js';
import { taskChanges } from './task-changes.js';
import { tripEndSignal } from './trip-end-signal.js';
import { zoneSignal } from './zone-signal.js';

/**
 * Every kind of event rule, once. The order is the workspace's and the OpenAPI description's,
 * and the signal kinds' is the order their detectors see a fix in (so the order of the signals
 * one fix fires).
 */
export const RULE_KINDS = [
  speedSignal,
  zoneSignal,
  stopSignal,
  powerSignal,
  loadingSignal,
  sensorSignal,
  tripEndSignal,
  arrivalSignal,
  taskChanges,
  employeeChanges,
] as const satisfies readonly RuleKindDefinition[];

/** What a rule's `kind` holds. */
export type RuleKind = (typeof RULE_KINDS)[number]['kind'];

type AnySignalKind = SignalKindDefinition<number, { id: number }, unknown>;

/** The signal kinds of 6.3, found in the fixes by the pipeline. */
export const SIGNAL_KINDS: readonly AnySignalKind[] = RULE_KINDS.filter((kind): kind is Extract<(typeof RULE_KINDS)[number], { source: 'fixes' }> => kind.source === 'fixes');

/** The signal types of 6.3 (the signal kinds' `kind`). */
export type SignalKind = Extract<(typeof RULE_KINDS)[number], { source: 'fixes' }>['kind'];
export const SIGNAL_TYPES: readonly SignalKind[] = SIGNAL_KINDS.map((kind) => kind.kind as SignalKind);

/** The change feeds of 6.4 and 6.5. */
export const CHANGE_FEEDS = RULE_KINDS.filter((kind): kind is Extract<(typeof RULE_KINDS)[number], ChangeFeedDefinition<string>> => kind.source === 'changes');

const byKind = new Map<string, RuleKindDefinition>(RULE_KINDS.map((definition) => [String(definition.kind), definition]));

/** The definition of a rule's kind (`1` and `'1'` alike); undefined for a kind not in the list. */
export function ruleKindOf(kind: unknown): RuleKindDefinition | undefined {
  return byKind.get(String(kind));
}
