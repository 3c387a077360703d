import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCallback } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/**
 * A folder the package's build wrote (such as `web/dist`), whether this runs from `src/` (tsx) or from
 * `dist/src/` (npm start); null when it holds no `index.html`, i.e. was not built.
 */
export function builtDir(...path: string[]): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    if (existsSync(join(dir, 'package.json'))) {
      const built = join(dir, ...path);
      return existsSync(join(built, 'index.html')) ? built : null;
    }
    dir = dirname(dir);
  }
  return null;
}

export interface BuiltFiles {
  root: string;
  /** Where the files are served, ending in `/`. */
  prefix: string;
  /** Headers of every answer of this scope: the content security policy and its neighbours. */
  headers: Record<string, string>;
  /** Whether `/prefix` without its slash is sent on to `/prefix/`. */
  redirect?: boolean;
}

/**
 * Serves a Vite build: only the files it holds become routes (every other path keeps the API's 404),
 * each with the `.br` or `.gz` copy the build wrote when the browser accepts it (scripts/compress-built.mjs).
 * Files under `assets/` are named by their content hash and never change; pages always revalidate.
 */
export function serveBuilt({ root, prefix, headers, redirect = false }: BuiltFiles) {
  const assets = join(root, 'assets') + sep;
  return async (app: FastifyInstance) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.headers(headers);
    });
    await app.register(fastifyStatic, {
      root,
      prefix,
      wildcard: false,
      // A list, not a string: with preCompressed, @fastify/static finds a folder's index only in a list.
      index: ['index.html'],
      redirect,
      preCompressed: true,
      decorateReply: false,
      // The compressed copies are answered in place of their original, never by their own names.
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (response, path) => {
        response.header('cache-control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  };
}

const compressedOnce = new Map<string, { source: unknown; encoding: 'br' | 'gzip'; body: Buffer }>();

/**
 * An `onSend` hook for a scope whose answers are large and never change, such as a bundled script a
 * plugin serves from memory: each is compressed once (Brotli, else gzip, as the browser accepts)
 * and the compressed copy is answered from then on.
 */
export async function compressUnchanging(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (typeof payload !== 'string' || payload.length < 64 * 1024) return payload;
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
  reply.header('vary', 'accept-encoding');
  if (!encoding) return payload;
  // By route, not by address: a query string must not make another copy (each is a megabyte or so).
  const key = `${encoding} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
  let entry = compressedOnce.get(key);
  if (entry?.source !== payload) {
    const body = encoding === 'br' ? await brotli(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : await gzip(payload);
    entry = { source: payload, encoding, body };
    compressedOnce.set(key, entry);
  }
  reply.header('content-encoding', entry.encoding);
  reply.removeHeader('content-length');
  return entry.body;
}
