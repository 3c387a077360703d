#!/usr/bin/env node
// Writes a Brotli (.br) and a gzip (.gz) copy beside each text file of the given build folders, for
// @fastify/static's `preCompressed` to answer browsers that accept them. Run after each build
// (package.json's build scripts); small files and files that do not shrink are left alone.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(html|js|mjs|css|svg|json|webmanifest|txt|xml)$/;
const SMALLEST = 1024;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

let written = 0;
for (const dir of process.argv.slice(2)) {
  for (const path of files(dir).filter((p) => TEXT.test(p))) {
    const original = readFileSync(path);
    if (original.length < SMALLEST) continue;
    const brotli = brotliCompressSync(original, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: original.length } });
    const gzip = gzipSync(original, { level: 9 });
    if (gzip.length >= original.length) continue;
    writeFileSync(`${path}.br`, brotli);
    writeFileSync(`${path}.gz`, gzip);
    written += 1;
  }
}
process.stdout.write(`compressed ${written} files\n`);
