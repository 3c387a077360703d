import { Type, type TSchema } from 'typebox';
import type { Feed } from '../../events/events.js';
import type { ZoneIndex } from '../../geozones/geozones.js';
import type { Catalogue, Locale } from '../../i18n/catalogue.js';
import type { FixZones, TrackRecord, TrackSettings } from '../../positioning/positioning.js';
import type { TaskDestination } from '../../tasks/tasks.js';
import type { ArrivalEstimator } from '../arrival-estimator.js';
import type { Emit, SignalFix } from '../signal-types.js';

/**
 * What a kind of event rule is (interface 6.1, CONTRACT §4): a signal kind of 6.3, found in the
 * fixes by a detector, or a change feed of 6.4 / 6.5. Each kind is one definition in
 * `kinds/<name>.ts`, listed once in `rule-kinds.ts`; the rule schema and its checks, the
 * detectors' wiring, the messages, the workspace's rule form and the docs read that list.
 */
export type RuleKindDefinition = SignalKindDefinition<number, { id: number }, unknown> | ChangeFeedDefinition<string>;

interface RuleKindCommon<K extends number | string> {
  /** What a rule's `kind` holds: the signal type of 6.3, or the feed's name. */
  kind: K;
  /** How the OpenAPI description of `kind` names it (`2 zone entry/exit`). */
  summary: string;
  /** The rule's `parameters`, checked against the rule's kind when it is saved. */
  parameters: TSchema;
  /** A check the schema cannot say, after the schema's: throws the API's validation error. */
  checkParameters?(parameters: Record<string, unknown>): void;
  workspace: RuleKindWorkspace;
}

/**
 * What the workspace's rule form shows of a kind, by the workspace catalogue's keys
 * (web/src/i18n); bounds, whole numbers and required parameters come from `parameters`.
 */
export interface RuleKindWorkspace {
  /** The kind's name in the kind choice and the rule list. */
  label: string;
  /** The number parameters, in the form's order, with their label and hint. */
  numbers?: readonly { key: string; label: string; hint?: string }[];
  /** A parameter editor of the workspace's own (the zone lists). */
  editor?: 'zones';
  /** Two number parameters of which at least one is given, the first not above the second. */
  range?: readonly [string, string];
}

/** A signal kind of 6.3: its rules' parameters typed (`R`), its detector and its state (`S`), its message. */
export interface SignalKindDefinition<K extends number, R extends { id: number }, S> extends RuleKindCommon<K> {
  source: 'fixes';
  /** The kind's own fields of the signal body, in body order (after the fields of 6.3). */
  bodyFields: readonly string[];
  /** A rule's parameters as the detector reads them (the schema held when they were saved). */
  rule(id: number, parameters: Record<string, unknown>): R;
  detector: SignalDetector<R, S>;
  message: SignalMessage;
}

/** A change feed of 6.4 / 6.5: the events module's changes of one entity, as arrays of elements. */
export interface ChangeFeedDefinition<K extends string> extends RuleKindCommon<K> {
  source: 'changes';
  /** The events module's feed it carries. */
  feed: Feed;
  /** `signalEntityTypeID` of the element's metadata. */
  entityTypeId: number;
  /** The element's key for the entity (`task`, `subscriber`). */
  entityKey: string;
  message: { lines(element: MessageBody, words: MessageWords, at: TimeOf): string[] };
}

/** What of a batch a detector reads besides the fixes, loaded once per batch when a rule of the kind is enabled. */
export type BatchSource = 'zoneIndex' | 'openTasks';

export interface SignalDetector<R, S> {
  /** Its part of a subscriber's signal state, kept with the pipeline state: never renamed. */
  stateKey: string;
  /** The part is a fact a replay must not undo: kept in `live`, carried over a replay as it is. */
  live?: boolean;
  uses?: readonly BatchSource[];
  initialState(): S;
  /** The detector of one subscriber for one batch, on its state; null when what it reads is missing. */
  start(state: S, rules: readonly R[], context: DetectorContext): DetectorStep | null;
}

/** What a batch's detectors of one subscriber share. */
export interface DetectorContext {
  track: TrackSettings;
  zoneIndex: ZoneIndex | null;
  /** The subscriber's open tasks (see TaskDestination). */
  tasks: readonly TaskDestination[];
  estimator: ArrivalEstimator;
  timeZone: string;
}

/** What the pipeline tells of a fix besides the fix (FixSignals.step). */
export interface FixMoment {
  live: boolean;
  ended: TrackRecord | null;
  stopAtMs: number | null;
  zones: FixZones | null;
}

export type DetectorStep = (fix: SignalFix, moment: FixMoment, emit: Emit) => void;

export type MessageWords = Catalogue['message'];
export type MessageBody = Record<string, unknown>;
/** A date of the interface as the reader's wall clock, the zone named; null when there is none. */
export type TimeOf = (date: unknown) => string | null;

/** A signal's message: the headline and the lines only this kind has (time, position and speed are every signal's). */
export interface SignalMessage {
  /** What happened, in a few words (the employee follows). `speed`: the signal's speed as the language writes it. */
  headline(body: MessageBody, words: MessageWords, locale: Locale, speed: string | null): string;
  /** The headline says the speed: no line of its own. */
  speedInHeadline?: boolean;
  /** Lines after time, position and speed. */
  details?(body: MessageBody, words: MessageWords, at: TimeOf): string[];
}

/** A signal kind, its literal `kind` kept (the list's types are made of it). */
export function defineSignalKind<const K extends number, R extends { id: number }, S>(definition: Omit<SignalKindDefinition<K, R, S>, 'source'>): SignalKindDefinition<K, R, S> {
  return { source: 'fixes', ...definition };
}

export function defineChangeFeed<const K extends string>(definition: Omit<ChangeFeedDefinition<K>, 'source'>): ChangeFeedDefinition<K> {
  return { source: 'changes', ...definition };
}

/** A number parameter as stored, or `fallback` when it is missing. */
export const numberOr = <T>(value: unknown, fallback: T): number | T => (typeof value === 'number' ? value : fallback);

/** A list of ids as stored; empty when missing. */
export const idList = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);

/** A rule of a kind without parameters. */
export interface PlainRule {
  id: number;
}

/** A sensor's number as trackers report it (`sensorID`). */
export const SensorId = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
