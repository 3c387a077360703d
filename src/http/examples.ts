import type { Static, TSchema } from 'typebox';

/** A copy of a TypeBox schema with more keywords; it keeps TypeBox's hidden markers, so `Type.Optional` and `Static` see the same type. */
function copyWith<T extends TSchema>(schema: T, keywords: Record<string, unknown>): T {
  const copy = Object.create(Object.getPrototypeOf(schema) as object, Object.getOwnPropertyDescriptors(schema)) as T;
  return Object.assign(copy, keywords);
}

/**
 * The schema with worked examples. The OpenAPI document shows them (the first example of a body or
 * an answer becomes its media example, a parameter's its parameter example), and
 * test/http/openapi-examples.test.ts checks every one against the schema it sits on.
 */
export function withExamples<T extends TSchema>(schema: T, ...examples: Static<T>[]): T {
  return copyWith(schema, { examples });
}

/** The schema with a description: for an answer, the line a reader sees beside its status. */
export function described<T extends TSchema>(schema: T, description: string): T {
  return copyWith(schema, { description });
}
