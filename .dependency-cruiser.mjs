/**
 * The module boundaries of DESIGN "Modules", checked by `npm run lint` (`depcruise src`).
 * Read with the README's module picture (Architecture). Three rules:
 *  - no import cycles, type imports included;
 *  - a module reaches another only through its face, `src/<module>/<module>.ts`;
 *  - a module depends only on the modules below it (`layers`); the kernel (http, store, geo, i18n,
 *    config, version) depends on no module, and every module may use it.
 * One list is read like the kernel: the device protocols (src/devices/protocols.ts), whose
 * definitions reach nothing outside src/devices/ and the kernel, so that employees (the form of a
 * device key) and config (the ports) take them from it while devices sit above employees.
 * The composition root (src/app.ts, src/main.ts) composes the modules from their faces too: each
 * face's `create…` function takes the faces of the modules it needs and gives back its routes and
 * the operations others may call.
 */
const layers = {
  audit: [],
  accounts: ['audit'],
  events: ['accounts'],
  customfields: ['accounts'],
  delivery: ['accounts', 'audit'],
  geozones: ['accounts', 'customfields', 'audit'],
  employees: ['accounts', 'customfields', 'events', 'audit'],
  tasks: ['accounts', 'employees', 'customfields', 'events', 'audit'],
  files: ['accounts', 'tasks'],
  forms: ['accounts', 'tasks', 'customfields', 'files'],
  alerts: ['accounts', 'employees'],
  positioning: ['accounts', 'employees', 'geozones'],
  signals: ['accounts', 'events', 'employees', 'tasks', 'positioning', 'geozones', 'delivery', 'alerts', 'audit'],
  devices: ['accounts', 'employees', 'positioning'],
  workspace: ['accounts', 'positioning', 'alerts'],
  reports: ['accounts', 'employees', 'positioning', 'geozones', 'delivery', 'tasks'],
  retention: ['accounts', 'positioning', 'delivery', 'reports', 'files', 'audit'],
};
const kernel = '^src/(http|store|geo|i18n)/|^src/(config|version)\\.ts$';
const protocolList = '^src/devices/protocols\\.ts$';

export default {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Import cycles (type imports count too) make modules that cannot be read, tested or moved apart.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'kernel-depends-on-no-module',
      comment: 'http, store and geo are the kernel every module uses; they know no module. (config.ts checks settings with the rules of the modules they belong to, through their faces.)',
      severity: 'error',
      from: { path: kernel, pathNot: '^src/config\\.ts$' },
      to: { path: '^src/', pathNot: kernel },
    },
    {
      name: 'protocol-list-depends-on-no-module',
      comment: 'The device protocols are data and pure functions that every module may read: from src/devices/protocols.ts nothing outside src/devices/ and the kernel is reachable.',
      severity: 'error',
      from: { path: protocolList },
      to: { path: '^src/', pathNot: [kernel, '^src/devices/'], reachable: true },
    },
    {
      name: 'only-through-the-face',
      comment: "Another module is reached through its face, src/<module>/<module>.ts, never its internals or tables.",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: kernel },
      to: { path: '^src/([^/]+)/', pathNot: [kernel, protocolList, '^src/$1/', '^src/(?<face>[^/]+)/\\k<face>\\.ts$'] },
    },
    {
      name: 'root-through-faces',
      comment: 'The files at the top of src/ (app.ts composes, main.ts starts) reach modules through their faces as well.',
      severity: 'error',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/([^/]+)/', pathNot: [kernel, protocolList, '^src/(?<face>[^/]+)/\\k<face>\\.ts$'] },
    },
    ...Object.entries(layers).map(([module, below]) => ({
      name: `layers-${module}`,
      comment: `${module} may use only: ${below.length ? below.join(', ') : 'the kernel'}.`,
      severity: 'error',
      from: { path: `^src/${module}/` },
      to: { path: '^src/([^/]+)/', pathNot: [kernel, protocolList, `^src/(${[module, ...below].join('|')})/`] },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(web|test|bench|dist)/' },
  },
};
