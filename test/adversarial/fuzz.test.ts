import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Response, TestServer } from '../helpers/server.js';
import { startServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { bodyFieldCases, pathCases, queryCases, randomByteCases, wholeBodyCases, type FuzzCase } from './fuzz-cases.js';
import { fillPath, loadOperations, type Operation } from './openapi-document.js';
import { ownBody, pathFor, queryVariants, setField, validParameterValues, withQuery } from './requests.js';
import { snapshot, snapshotDifferences } from './snapshot.js';
import { createTenant, idKindOf, NOW, ownCredential, send, signIn, type Tenant } from './tenants.js';

/**
 * Fuzz: malformed values for every parameter and body field of every operation of the
 * OpenAPI document. Every answer is the CONTRACT §1 envelope with a 4xx (400 code 2 for a
 * non-integer where an integer goes), never a 5xx or a success, and the account's data reads the
 * same afterwards. Path and query integers get the whole list of the issue; body fields and
 * whole bodies are sampled with a fixed seed (FUZZ_SEED, FUZZ_BODY_CASES to widen a run).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 11_2026);
const BODY_CASES_PER_OPERATION = Number(process.env.FUZZ_BODY_CASES ?? 48);
/** Bad values of a list parameter in the comma, repeated and bracket forms, per parameter. */
const LIST_FORM_CASES_PER_PARAMETER = Number(process.env.FUZZ_LIST_FORM_CASES ?? 12);
/** Random byte strings per path or query parameter of a read. */
const RANDOM_BYTES_PER_PARAMETER = Number(process.env.FUZZ_RANDOM_BYTES ?? 6);
const ENVELOPE_KEYS = new Set(['status', 'code', 'description', 'message', 'validationErrors']);
const RAW_MARK = '\u0001raw\u0001';

/** Why an answer breaks the rules of this case, or null. */
function violation(r: Response, c: FuzzCase): string | null {
  if (r.status >= 500 || (r.status < 400 && c.expect !== 'no5xx')) return `answered ${r.status}`;
  if (r.status < 400) return null;
  const body = r.body as Record<string, unknown> | null;
  if (!(r.headers.get('content-type') ?? '').startsWith('application/json') || body === null || typeof body !== 'object' || Array.isArray(body)) {
    return `answered ${r.status} without the JSON envelope`;
  }
  const extra = Object.keys(body).filter((k) => !ENVELOPE_KEYS.has(k));
  if (extra.length) return `answered ${r.status} with keys outside the envelope: ${extra.join(', ')}`;
  if (body.status !== r.status || !Number.isInteger(body.code) || typeof body.description !== 'string' || typeof body.message !== 'string') {
    return `answered ${r.status} with an incomplete envelope`;
  }
  if (/\n\s+at |\.ts:\d+|\.js:\d+/.test(body.message)) return `answered ${r.status} with a stack trace in the message`;
  if (c.expect === 'code2' && (r.status !== 400 || body.code !== 2)) return `answered ${r.status} code ${String(body.code)}, where a non-integer is 400 code 2`;
  return null;
}

/** The fixed seed, varied per operation and parameter so that each gets its own sample. */
function seedOf(salt: string): number {
  let seed = SEED;
  for (const ch of salt) seed = (seed * 31 + ch.charCodeAt(0)) | 0;
  return seed;
}

/** `count` of `cases`, picked with the fixed seed (all of them when there are fewer). */
function sample<T>(cases: T[], count: number, salt: string): T[] {
  if (cases.length <= count) return cases;
  return fc.sample(fc.shuffledSubarray(cases, { minLength: count, maxLength: count }), { seed: seedOf(salt), numRuns: 1 })[0]!;
}

for (const dialect of dialects) {
  describe(`fuzz of every operation in the OpenAPI document on ${dialect}`, () => {
    let server: TestServer;
    let operations: Operation[];
    let tenant: Tenant;

    before(async () => {
      // Every case is an upload attempt of one device key: the throttle, tested in test/files/, is not what is fuzzed here.
      server = await startServer(dialect, { now: NOW, services: { files: { uploadsPerMinute: 1_000_000 } } });
      operations = await loadOperations(server.baseUrl);
      tenant = await createTenant(server.baseUrl, 'F');
    });
    after(() => server?.close());

    /** The cases of one operation: all path and query cases, a seeded sample of body cases. */
    function casesOf(operation: Operation, goodBody: unknown): FuzzCase[] {
      const cases: FuzzCase[] = [];
      for (const p of operation.parameters) {
        if (p.in === 'path') cases.push(...pathCases(p));
        if (p.in === 'query') {
          const kind = idKindOf(p.name);
          const all = queryCases(p, kind ? tenant.ids[kind]! : validParameterValues(p)[0]!);
          cases.push(...all.filter((c) => !c.listForm), ...sample(all.filter((c) => c.listForm), LIST_FORM_CASES_PER_PARAMETER, `${operation.label} ${p.name}`));
        }
        // Random bytes may be a valid value: only reads get them, so that nothing they are allowed to change changes.
        if (operation.method === 'GET' && (p.in === 'path' || p.in === 'query')) {
          const bytes = fc.sample(fc.uint8Array({ minLength: 0, maxLength: 24 }), { seed: seedOf(`${operation.label} ${p.name}`), numRuns: RANDOM_BYTES_PER_PARAMETER });
          cases.push(...randomByteCases(p, bytes));
        }
      }
      if (operation.body && goodBody !== undefined) {
        const bodyCases = [...bodyFieldCases(operation.body), ...wholeBodyCases(operation.body, JSON.stringify(goodBody))];
        cases.push(...sample(bodyCases, BODY_CASES_PER_OPERATION, operation.label));
      }
      return cases;
    }

    /** The operation's good request with the one value of the case in place. */
    function requestOf(operation: Operation, c: FuzzCase, goodBody: unknown) {
      const ids: Record<string, string> = {};
      for (const p of operation.parameters.filter((x) => x.in === 'path')) ids[p.name] = encodeURIComponent(tenant.ids[idKindOf(p.name)!]!);
      if (c.where === 'path') ids[c.name] = c.urlText!;
      const path = fillPath(operation.path, ids, true);
      const goodQuery = queryVariants(operation, tenant.ids)[0]?.query ?? '';
      const query =
        c.where === 'query'
          ? [...goodQuery.split('&').filter((pair) => pair && decodeURIComponent(pair.split('=')[0]!) !== c.name), c.rawQuery!].join('&')
          : goodQuery;
      let body: string | undefined = goodBody === undefined ? undefined : JSON.stringify(goodBody);
      const headers = ownCredential(tenant, operation.audience, operation.method);
      if (c.where === 'body-field') {
        body = JSON.stringify(setField(goodBody, operation.body!, c.name, c.raw === undefined ? c.value : RAW_MARK)).replace(JSON.stringify(RAW_MARK), c.raw ?? '');
      } else if (c.where === 'body') {
        body = c.bodyText;
        if (c.contentType) headers['content-type'] = c.contentType;
      }
      return { method: operation.method, path: withQuery(path, query), headers, ...(body === undefined ? {} : { body }) };
    }

    it('refuses every malformed parameter and body of every operation with the envelope, and changes nothing', async (t) => {
      for (const operation of operations) {
        await t.test(operation.label, async () => {
          const goodBody = await ownBody(server.baseUrl, operations, operation, tenant);
          const cases = casesOf(operation, goodBody);
          const changes = operation.method !== 'GET';
          if (operation.body && goodBody !== undefined) {
            // The good request itself is taken (or is a conflict with what it made before): each case below is refused for its one bad value, not for the rest of the body.
            const control = await send(server.baseUrl, requestOf(operation, { where: 'body', name: '(control)', shown: 'the good body', expect: 'no5xx', bodyText: JSON.stringify(goodBody) }, goodBody));
            assert.ok(control.status < 300 || control.status === 409, `${operation.label}: the good body, ${JSON.stringify(goodBody).slice(0, 300)}, is refused: ${control.status} ${control.text.slice(0, 300)}`);
          }
          const before = changes ? await snapshot(server.baseUrl, operations, tenant, ['api', 'operator']) : null;
          const failures: string[] = [];
          for (const c of cases) {
            const request = requestOf(operation, c, goodBody);
            let r: Response;
            try {
              r = await send(server.baseUrl, request);
            } catch (error) {
              failures.push(`${c.where} ${c.name} = ${c.shown}: the connection failed (${(error as Error).message})`);
              continue;
            }
            const why = violation(r, c);
            if (why) failures.push(`${operation.method} ${request.path.slice(0, 160)}: ${c.where} ${c.name} = ${c.shown}: ${why}: ${r.text.slice(0, 200)}`);
          }
          // Whatever was refused, the workspace user may have been signed out by nothing else than a bug: sign in again for the next routes.
          if (operation.audience === 'workspace') await signIn(server.baseUrl, tenant);
          if (before) failures.push(...snapshotDifferences(before, await snapshot(server.baseUrl, operations, tenant, ['api', 'operator'])).map((d) => `after the cases of ${operation.label}: ${d}`));
          assert.ok(cases.length > 0 || (!operation.body && operation.parameters.length === 0), `${operation.label}: no cases`);
          assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases broke the rules:\n${failures.slice(0, 40).join('\n')}`);
        });
      }
    });

    it('leaves path ids of this account well formed: the fixtures still read', async () => {
      for (const operation of operations.filter((o) => o.method === 'GET' && o.audience === 'api' && o.path.includes('{'))) {
        const r = await send(server.baseUrl, { method: 'GET', path: pathFor(operation, tenant.ids), headers: ownCredential(tenant, 'api', 'GET') });
        assert.equal(r.status, 200, `${operation.label}: ${r.text.slice(0, 200)}`);
      }
    });
  });
}
