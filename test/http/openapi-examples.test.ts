import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The OpenAPI document teaches: every operation says what it does and shows a request and an
 * answer, and every example is true to the schema it illustrates. The document is built from the
 * route schemas alone, so one store (SQLite) is enough.
 */

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Operation {
  label: string;
  path: string;
  spec: Json;
}

function operationsOf(document: Json): Operation[] {
  return Object.entries<Json>(document.paths).flatMap(([path, methods]) =>
    Object.entries<Json>(methods)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, spec]) => ({ label: `${method.toUpperCase()} ${path}`, path, spec })),
  );
}

/** The examples of a media type object or a parameter: `example`, or the values of `examples`. */
function examplesOf(holder: Json | undefined): unknown[] {
  if (!holder) return [];
  if (holder.example !== undefined) return [holder.example];
  if (holder.examples) return Object.values<Json>(holder.examples).map((e) => e.value);
  return [];
}

/**
 * A copy of a response schema that refuses fields it does not name, so an example with a
 * misspelled field fails instead of passing as "additional". Request schemas already say what
 * they allow and are left as they are.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = key === 'examples' || key === 'example' ? value : closed(value);
  if (copy.properties && copy.additionalProperties === undefined && copy.patternProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/** Every `examples` array nested in a schema, with the schema it belongs to and where it sits. */
function nestedExamples(schema: unknown, where: string, out: { where: string; schema: Json; example: unknown }[] = []) {
  if (!schema || typeof schema !== 'object') return out;
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => nestedExamples(item, `${where}[${i}]`, out));
    return out;
  }
  const s = schema as Json;
  if (Array.isArray(s.examples)) for (const example of s.examples) out.push({ where, schema: s, example });
  for (const [key, value] of Object.entries(s)) if (key !== 'examples' && key !== 'example') nestedExamples(value, `${where}.${key}`, out);
  return out;
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  let document: Json;
  let operations: Operation[];
  before(async () => {
    server = await startServer('sqlite');
    const response = await fetch(`${server.baseUrl}/v6/openapi.json`);
    assert.equal(response.status, 200);
    document = (await response.json()) as Json;
    operations = operationsOf(document);
  });
  after(() => server.close());

  it('opens with a guide to authentication, errors, paging, dates and idempotency, linking the docs site', () => {
    const intro: string = document.info.description;
    for (const topic of ['Authentication', 'Errors', 'paging', 'time zones', 'Idempotency']) assert.match(intro, new RegExp(topic, 'i'));
    const links = [...intro.matchAll(/\]\((\/docs\/[^)]*)\)/g)].map((m) => m[1]);
    assert.ok(links.length >= 3, 'the guide links the documentation site');
  });

  it('gives every operation a summary, a description and a tag of the interface’s groups', () => {
    const declared = new Set<string>(document.tags.map((t: Json) => t.name));
    const grouped = new Set<string>(document['x-tagGroups'].flatMap((g: Json) => g.tags));
    for (const tag of declared) assert.ok(grouped.has(tag), `tag ${tag} is in a group`);
    for (const tag of document.tags) assert.ok(tag.description, `tag ${tag.name} has a description`);
    const problems: string[] = [];
    for (const { label, spec } of operations) {
      if (!spec.summary?.trim()) problems.push(`${label}: no summary`);
      if (!spec.description?.trim()) problems.push(`${label}: no description`);
      if (!spec.tags?.length) problems.push(`${label}: no tag`);
      for (const tag of spec.tags ?? []) if (!declared.has(tag)) problems.push(`${label}: tag "${tag}" is not one of the document's tags`);
    }
    assert.deepEqual(problems, []);
    assert.ok(operations.length >= 100, `${operations.length} operations`);
  });

  it('shows an example request and an example answer for every operation', () => {
    const problems: string[] = [];
    for (const { label, spec } of operations) {
      const body = spec.requestBody?.content?.['application/json'];
      if (body && examplesOf(body).length === 0) problems.push(`${label}: no example body`);
      const parameters: Json[] = spec.parameters ?? [];
      for (const p of parameters.filter((p) => p.in === 'path')) if (examplesOf(p).length === 0) problems.push(`${label}: no example for path parameter ${p.name}`);
      for (const p of parameters.filter((p) => p.in === 'query' && p.required)) {
        if (examplesOf(p).length === 0) problems.push(`${label}: no example for required query parameter ${p.name}`);
      }
      const query = parameters.filter((p) => p.in === 'query');
      if (query.length > 0 && !query.some((p) => examplesOf(p).length > 0)) problems.push(`${label}: no query parameter has an example`);
      const answers = Object.entries<Json>(spec.responses ?? {}).filter(([status]) => status.startsWith('2'));
      if (answers.length === 0) problems.push(`${label}: no success answer`);
      for (const [status, response] of answers) {
        if (!response.description || response.description === 'Default Response') problems.push(`${label}: answer ${status} is not described`);
        const media = response.content && Object.values<Json>(response.content)[0];
        if (media && examplesOf(media).length === 0) problems.push(`${label}: no example answer ${status}`);
      }
      for (const [status, response] of Object.entries<Json>(spec.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (Number(status) >= 400 && media && examplesOf(media).length === 0) problems.push(`${label}: no example of error ${status}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('has only examples that its own schemas accept', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(ajv);
    const problems: string[] = [];
    const check = (where: string, schema: unknown, example: unknown) => {
      const valid = ajv.validate(schema as Json, example);
      if (!valid) problems.push(`${where}: ${ajv.errorsText(ajv.errors, { dataVar: 'example' })} in ${JSON.stringify(example).slice(0, 300)}`);
    };
    let checked = 0;
    for (const { label, spec } of operations) {
      const body = spec.requestBody?.content?.['application/json'];
      for (const example of examplesOf(body)) {
        check(`${label} request`, body.schema, example);
        checked++;
      }
      for (const p of spec.parameters ?? []) {
        for (const example of examplesOf(p)) {
          check(`${label} parameter ${p.name}`, p.schema, example);
          checked++;
        }
      }
      for (const [status, response] of Object.entries<Json>(spec.responses ?? {})) {
        for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
          for (const example of examplesOf(media)) {
            if (type === 'application/json') check(`${label} answer ${status}`, closed(media.schema), example);
            else assert.equal(typeof example, 'string', `${label} answer ${status} ${type}: a text example`);
            checked++;
          }
        }
      }
      for (const nested of nestedExamples(spec, label)) {
        const { examples: _, ...schema } = nested.schema;
        check(nested.where, closed(schema), nested.example);
        checked++;
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(checked > operations.length * 2, `${checked} examples checked`);
  });
});
