import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response, TestServer } from '../helpers/server.js';
import { startServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { loadOperations, type Operation } from './openapi-document.js';
import { answerShape, idFields, ownBody, pathFor, queryVariants, setField, withQuery } from './requests.js';
import { snapshot, snapshotDifferences } from './snapshot.js';
import { createTenant, credentialHeaders, GHOST_IDS, idKindOf, NOW, send, signIn, type CredentialKind, type Tenant } from './tenants.js';

/**
 * Tenancy matrix: account B calls every route and method of the OpenAPI document with
 * account A's ids (in the path, in id filters of the query, in id fields of the body), with its
 * bearer token, its workspace session cookie and its employee's device key. Each answer must be
 * exactly what the same request answers for an id no account holds ("does not exist"), and no
 * answer may hold A's data (A's marker text, or A's ids in id fields). A's reads are the same
 * afterwards.
 */

/** Values equal to one of the swapped ids, replaced so the two answers can be compared. */
function normalise(value: unknown, ids: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v, ids));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, ids)]));
  }
  return (typeof value === 'number' || typeof value === 'string') && ids.has(String(value)) ? '<id>' : value;
}

/** Keys whose value is the id of an object of one of these kinds (one sequence per kind, so A's id is never B's). */
const ID_KEYS: Record<string, string> = {
  subscriberID: 'subscriberID',
  zoneID: 'zoneID',
  zoneGroupID: 'zoneGroupID',
  mapObjectID: 'mapObjectID',
  taskID: 'taskID',
  trackID: 'trackID',
  locationID: 'locationID',
  deliveryID: 'deliveryID',
  accountID: 'accountID',
  retranslatorID: 'retranslatorID',
  fileID: 'fileID',
  alertID: 'alertID',
  pictureID: 'fileID',
  userID: 'userID',
  tokenID: 'tokenID',
};

/**
 * Where an answer to B holds A's data: A's marker text, or (in a success) one of A's ids under its
 * key. What the request itself carried is an echo, not a leak (the comparison with an id no one
 * holds judges those).
 */
function leaks(r: Response, a: Tenant, sent = ''): string[] {
  const marked = r.text.includes(a.marker) && !sent.includes(a.marker);
  if (r.status >= 300) return marked ? [`the error text holds A's marker: ${r.text.slice(0, 300)}`] : [];
  const found: string[] = [];
  if (marked) found.push(`holds A's marker ${a.marker}`);
  const walk = (value: unknown, at: string) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`));
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const kind = ID_KEYS[k];
        if (kind && String(v) === a.ids[kind] && !echoes(sent, String(v))) found.push(`${at}.${k} is A's ${kind} ${String(v)}`);
        walk(v, `${at}.${k}`);
      }
    }
  };
  walk(r.body, 'body');
  return found;
}

/** `ids` restricted to the kind the parameter names (`subscriberIDs` → subscriberID). */
function only(ids: Record<string, string>, parameter: string): Record<string, string> {
  const kind = idKindOf(parameter);
  return kind && ids[kind] !== undefined ? { [kind]: ids[kind] } : {};
}

/** Whether the request text carried this id as a whole number or string. */
const echoes = (sent: string, id: string) => new RegExp(`(^|[^0-9A-Za-z])${id}([^0-9A-Za-z]|$)`).test(sent);

/** GETs first and DELETEs last, so that a route that wrongly deletes A's object is found by the reads and the snapshot, not hidden from them. */
const ORDER = { GET: 0, POST: 1, PUT: 2, PATCH: 3, DELETE: 4 } as const;

for (const dialect of dialects) {
  describe(`tenancy matrix over the OpenAPI document on ${dialect}`, () => {
    let server: TestServer;
    let operations: Operation[];
    let a: Tenant;
    let b: Tenant;
    let aBefore: Map<string, unknown>;

    before(async () => {
      server = await startServer(dialect, { now: NOW });
      operations = (await loadOperations(server.baseUrl)).sort((x, y) => ORDER[x.method] - ORDER[y.method]);
      a = await createTenant(server.baseUrl, 'A');
      b = await createTenant(server.baseUrl, 'B');
      aBefore = await snapshot(server.baseUrl, operations, a);
    });
    after(() => server?.close());

    it('every path parameter of the document names a kind of object both tenants hold', () => {
      assert.ok(operations.length >= 40, `the document lists ${operations.length} operations`);
      for (const operation of operations) pathFor(operation, a.ids);
    });

    /**
     * One request as A's id and as an id no one holds; a failure line when they differ or when
     * either answer holds A's data.
     */
    async function compare(operation: Operation, kind: CredentialKind, what: string, build: (ids: Record<string, string>, ghost: boolean) => Promise<{ path: string; body?: unknown }>) {
      const headers = credentialHeaders(b, kind, operation.method);
      const call = async (ghost: boolean) => {
        const { path, body } = await build(ghost ? GHOST_IDS : a.ids, ghost);
        const text = body === undefined ? undefined : JSON.stringify(body);
        const r = await send(server.baseUrl, { method: operation.method, path, headers, ...(text === undefined ? {} : { body: text }) });
        return { path, r, sent: `${decodeURIComponent(path)} ${text ?? ''}` };
      };
      const ghost = await call(true);
      const mine = await call(false);
      const failures: string[] = [];
      const tag = `${operation.label} with B's ${kind}, ${what}: ${operation.method} ${mine.path}`;
      for (const leak of [...leaks(mine.r, a, mine.sent), ...leaks(ghost.r, a, ghost.sent)]) failures.push(`${tag}: ${leak}`);
      const swapped = new Set([...Object.values(a.ids), ...Object.values(GHOST_IDS)]);
      const created = mine.r.status === 201 && ghost.r.status === 201;
      const same = created || JSON.stringify(normalise(answerShape(mine.r), swapped)) === JSON.stringify(normalise(answerShape(ghost.r), swapped));
      if (!same) {
        failures.push(`${tag} answered ${mine.r.status} ${mine.r.text.slice(0, 300)} where an id no account holds answers ${ghost.r.status} ${ghost.r.text.slice(0, 200)}`);
      }
      return failures;
    }

    /** Every way this operation takes an id, each tried with A's ids against ids no one holds. */
    async function attack(operation: Operation, kind: CredentialKind): Promise<string[]> {
      const failures: string[] = [];
      const hasPathIds = operation.parameters.some((p) => p.in === 'path');
      const base = await ownBody(server.baseUrl, operations, operation, b);
      if (hasPathIds) {
        failures.push(
          ...(await compare(operation, kind, 'ids in the path', async (ids) => ({ path: withQuery(pathFor(operation, ids), queryVariants(operation, ids)[0]?.query ?? ''), body: base }))),
        );
      }
      // DELETE only ever names A's or no one's object: with B's own ids it would delete B's fixtures.
      if (operation.method === 'DELETE') return failures;
      const mineVariants = queryVariants(operation, b.ids);
      for (const [i, variant] of queryVariants(operation, a.ids).entries()) {
        const attacked = variant.idParameter;
        if (!attacked) continue;
        // The same variant with B's ids elsewhere and only the attacked parameter set to A's or no one's id.
        const query = (ids: Record<string, string>) => queryVariants(operation, { ...b.ids, ...only(ids, attacked) })[i]!.query;
        failures.push(...(await compare(operation, kind, `query ${attacked}`, async (ids) => ({ path: withQuery(pathFor(operation, b.ids), query(ids)), body: base }))));
      }
      for (const field of operation.body && base !== undefined ? idFields(operation.body) : []) {
        failures.push(
          ...(await compare(operation, kind, `body field ${field.path}`, async (ids) => ({
            path: withQuery(pathFor(operation, b.ids), mineVariants[0]?.query ?? ''),
            body: setField(base, operation.body!, field.path, field.write(ids[field.kind] ?? '')),
          }))),
        );
      }
      const bodyIds = operation.body && base !== undefined ? idFields(operation.body).length : 0;
      if (!hasPathIds && !mineVariants.some((v) => v.idParameter) && bodyIds === 0) {
        // No id to swap: B's own call must still hold none of A's data.
        const text = base === undefined ? undefined : JSON.stringify(base);
        const r = await send(server.baseUrl, {
          method: operation.method,
          path: withQuery(operation.path, mineVariants[0]?.query ?? ''),
          headers: credentialHeaders(b, kind, operation.method),
          ...(text === undefined ? {} : { body: text }),
        });
        failures.push(...leaks(r, a, text ?? '').map((leak) => `${operation.label} with B's ${kind}: ${leak}`));
      }
      return failures;
    }

    // The device first: the employee app's task list shows B's tasks whole, and the other passes
    // leave B's tasks holding ids B wrote into them (a task takes any mapObjectID), A's among them.
    for (const kind of ['device', 'bearer', 'cookie'] as CredentialKind[]) {
      it(`B's ${kind} is answered "does not exist" wherever it names A's objects, on every route and method`, async () => {
        const failures: string[] = [];
        for (const operation of operations) {
          failures.push(...(await attack(operation, kind)));
          // A route may end B's session (sign-out): sign in again so the next routes are tried with a live one.
          if (operation.path.startsWith('/workspace/')) {
            const alive = await send(server.baseUrl, { method: 'GET', path: '/workspace/api/session', headers: { cookie: b.session.cookie } });
            if (alive.status !== 200) await signIn(server.baseUrl, b);
          }
        }
        assert.deepEqual(failures, [], `\n${failures.join('\n')}`);
      });
    }

    it("A's data reads the same after all of B's attempts", async () => {
      const differences = snapshotDifferences(aBefore, await snapshot(server.baseUrl, operations, a));
      assert.deepEqual(differences, [], `\n${differences.join('\n')}`);
    });

    // After the snapshot check: A's requests here make objects of its own.
    it('an Idempotency-Key A used means nothing to B on any POST of the API', async () => {
      const failures: string[] = [];
      for (const operation of operations.filter((o) => o.method === 'POST' && o.audience === 'api')) {
        const key = `adversarial ${operation.path}`;
        const request = async (tenant: Tenant, idempotencyKey: string) => {
          const body = await ownBody(server.baseUrl, operations, operation, tenant);
          const text = body === undefined ? undefined : JSON.stringify(body);
          const path = withQuery(pathFor(operation, tenant.ids), queryVariants(operation, tenant.ids)[0]?.query ?? '');
          const headers = { ...credentialHeaders(tenant, 'bearer', 'POST'), 'idempotency-key': idempotencyKey };
          return { sent: `${path} ${text ?? ''}`, r: await send(server.baseUrl, { method: 'POST', path, headers, ...(text === undefined ? {} : { body: text }) }) };
        };
        await request(a, key);
        const reused = await request(b, key);
        const fresh = await request(b, `${key} fresh`);
        for (const leak of leaks(reused.r, a, reused.sent)) failures.push(`${operation.label} with A's Idempotency-Key: ${leak}`);
        // A route that limits how often (locate now: once a minute per employee) refuses B's second request whatever its key.
        const limited = reused.r.status === 429 || fresh.r.status === 429;
        if (!limited && reused.r.status !== fresh.r.status) {
          failures.push(`${operation.label}: B's request with the key A used answered ${reused.r.status} ${reused.r.text.slice(0, 200)}, with a fresh key ${fresh.r.status}`);
        }
      }
      assert.deepEqual(failures, [], `\n${failures.join('\n')}`);
    });
  });
}
