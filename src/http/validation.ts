import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError, type ValidationErrors } from './errors.js';

/**
 * Two validators: query strings and paths arrive as text, so they are coerced ("5" → 5,
 * a single value → an array); JSON bodies are not, so `"latitude": "55.7"` is an error.
 * Additional body properties are dropped, not stored (CONTRACT §1).
 */
const common = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false } as const;
const textAjv = addFormats.default(new Ajv.default({ ...common, coerceTypes: 'array' }));
const jsonAjv = addFormats.default(new Ajv.default({ ...common, coerceTypes: false }));

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? jsonAjv : textAjv).compile(schema);

/** Turns the first schema violation into the contract's error: 52 for absent, null or empty, 67 for count > 1000, else 2. */
export function validationError(errors: ErrorObject[], part: string, input: unknown): ApiError {
  const error = errors[0];
  if (!error) return new ApiError('BAD_REQUEST', `invalid ${part}`);
  const field = fieldName(error, part);
  const value = valueAt(input, error.instancePath);

  const emptyRequired = error.keyword === 'minLength' && value === '' && Number(error.params.limit) === 1;
  if (error.keyword === 'required' || (value === null && error.keyword === 'type') || emptyRequired) {
    return new ApiError('NULL_ARGUMENT', `${field} is required`, { [field]: 'is required' });
  }
  // The real API answers code 67 when more than 1000 elements are asked for.
  if (field === 'count' && error.keyword === 'maximum') {
    // The mobile positioning lists stop at 200 and answer code 66 there (the original's limit).
    if (Number(error.params.limit) === 200) return new ApiError('COUNT_LIMIT_EXCEEDED', 'count must not exceed 200', { count: 'must be at most 200' });
    return new ApiError('INVALID_NUMBER_OF_ELEMENTS', 'count must not exceed 1000', { count: 'must be at most 1000' });
  }
  const why = describe(error);
  const details: ValidationErrors = { [field]: why };
  return new ApiError('BAD_REQUEST', `${field}: ${why}`, details);
}

/** `/0/latitude` → `[0].latitude`; a missing property names the property itself. */
function fieldName(error: ErrorObject, part: string): string {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (segments.length === 0) return part;
  return segments.reduce((path, segment) => {
    if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
    return path === '' ? segment : `${path}.${segment}`;
  }, '');
}

function valueAt(input: unknown, pointer: string): unknown {
  let value = input;
  for (const raw of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'type':
      return `must be ${String(error.params.type)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(error.params.comparison)} ${String(error.params.limit)}`;
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'maxItems':
      return `must have at most ${String(error.params.limit)} items`;
    case 'minItems':
      return `must have at least ${String(error.params.limit)} items`;
    case 'maxLength':
      return `must be at most ${String(error.params.limit)} characters`;
    case 'minLength':
      return Number(error.params.limit) === 1 ? 'must not be empty' : `must be at least ${String(error.params.limit)} characters`;
    default:
      return error.message ?? 'is invalid';
  }
}
