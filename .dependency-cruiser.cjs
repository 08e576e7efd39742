/**
 * Dependencies point inwards: the domain is pure, adapters never reach up into use cases or HTTP,
 * HTTP and sagas see adapters through their ports, features meet only through their domains, and
 * the UI sees the server only through the shared zod schemas of src/domain.
 */
const ports = [
  'src/adapters/eventstore/eventStore\\.ts$',
  'src/adapters/db/db\\.ts$',
  'src/adapters/config/config\\.ts$',
  'src/adapters/mail/mailer\\.ts$',
  'src/adapters/identity/identityProvider\\.ts$',
  'src/adapters/jobs/jobQueue\\.ts$',
  'src/adapters/signIns/signInStore\\.ts$',
  'src/adapters/rateLimit/',
  'src/adapters/passwords/passwordHasher\\.ts$',
  'src/adapters/personalData/personalDataVault\\.ts$',
  'src/adapters/calendar/calendarPort\\.ts$',
  'src/adapters/payments/paymentPort\\.ts$',
  'src/adapters/files/fileStorage\\.ts$',
  'src/adapters/clock/clock\\.ts$',
];

/**
 * The UI features (ui/src/features/<feature>) in layers, top to bottom: a feature imports only
 * features of the layers below its own, so feature folders never import each other in a cycle
 * (dependency-cruiser's folder-scoped cycle check cannot leave out app/, the composition root that
 * imports every feature's routes). The shells compose the domain features; a new feature takes the
 * lowest layer that fits; pieces two features of one layer both need go to app/, components/ or lib/.
 */
const uiFeatureLayers = [
  ['admin', 'dashboards'],
  ['purchases'],
  ['tutors'],
  ['sessions', 'payouts', 'home'],
  ['accounts'],
  ['operations', 'notices', 'reviews', 'promoCodes', 'subjects', 'courses', 'about', 'contact', 'how-it-works', 'not-found', 'pricing'],
];
const oneOf = (names) => `(${names.join('|')})`;
const uiFeatureLayerRules = [
  ...uiFeatureLayers.map((layer, index) => ({
    name: 'ui-features-import-downwards',
    comment:
      'A UI feature imports only features of lower layers (uiFeatureLayers above): no cycles between feature folders. Shared pieces go to app/, components/ or lib/ (docs/architecture.md, UI).',
    severity: 'error',
    from: { path: `^ui/src/features/${oneOf(layer)}/` },
    to: { path: `^ui/src/features/${oneOf(uiFeatureLayers.slice(0, index + 1).flat())}/`, pathNot: '^ui/src/features/$1/' },
  })),
  {
    name: 'ui-feature-has-a-layer',
    comment: 'Every ui/src/features folder is listed in uiFeatureLayers, so the one-way rule covers it.',
    severity: 'error',
    from: { path: '^ui/src/features/', pathNot: `^ui/src/features/${oneOf(uiFeatureLayers.flat())}/` },
    to: {},
  },
];

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'src/domain imports no I/O, framework, clock source, or outer layer: zod, and temporal-polyfill for time-zone arithmetic (pure: the domain never calls Temporal.Now, time arrives in the command).',
      severity: 'error',
      from: { path: '^src/domain' },
      // temporal-polyfill: availability expands weekly hours in the tutor's zone across DST changes (src/domain/calendar).
      to: { pathNot: ['^src/domain', 'node_modules/zod', 'node_modules/temporal-polyfill'] },
    },
    {
      name: 'domain-no-node-builtins',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'commands-not-into-http-or-projections',
      severity: 'error',
      comment: 'Commands may ask read models through their queries (look-ups by login), never write them.',
      from: { path: '^src/commands' },
      to: { path: '^src/(http|projections|sagas)', pathNot: '^src/projections/[^/]+/queries\\.ts$' },
    },
    {
      name: 'projections-not-into-http-commands-sagas',
      severity: 'error',
      from: { path: '^src/projections' },
      to: { path: '^src/(http|commands|sagas)' },
    },
    {
      name: 'adapters-not-into-use-cases',
      severity: 'error',
      from: { path: '^src/adapters', pathNot: '^src/adapters/db/migrate\\.ts$' },
      to: { path: '^src/(http|commands|sagas)' },
    },
    {
      name: 'http-sees-adapter-ports-only',
      comment: 'Routes receive ports; the composition root (system.ts) picks the concrete adapter.',
      severity: 'error',
      from: { path: '^src/http' },
      to: { path: '^src/adapters', pathNot: ports },
    },
    {
      name: 'sagas-decide-through-commands',
      comment: 'A saga or workflow changes state by issuing commands (src/commands), never by calling a decider itself.',
      severity: 'error',
      from: { path: '^src/sagas' },
      to: { path: '^src/domain/.+Decider\\.ts$' },
    },
    {
      name: 'no-cross-feature-imports',
      comment:
        'Inside a layer a feature imports only itself, the layer kit and the operations feature; features meet through src/domain (e.g. deletion erases contact messages by their commands).',
      severity: 'error',
      from: { path: '^src/(commands|projections|sagas|http/routes)/([^/]+)/' },
      to: { path: '^src/$1/', pathNot: ['^src/$1/$2/', '^src/$1/(kit|runner|operations)/'] },
    },
    {
      name: 'ui-sees-server-through-shared-schemas',
      comment: 'The UI talks to the API over HTTP; it may import the zod schemas and pure rules of src/domain, nothing else of the server.',
      severity: 'error',
      from: { path: '^ui/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    ...uiFeatureLayerRules,
    {
      name: 'ui-console-shell-composes',
      comment:
        'features/admin is the console shell: it composes the domain features\' tabs, and nothing but the router imports it (a tab belongs to its domain\'s feature, not to the console).',
      severity: 'error',
      from: { path: '^ui/src/', pathNot: ['^ui/src/features/admin/', '^ui/src/app/router\\.tsx$'] },
      to: { path: '^ui/src/features/admin/' },
    },
    {
      name: 'ui-kit-is-domain-free',
      comment:
        'components/ (the UI kit and the console kit) and lib/ know no feature, so every feature may use them without a cycle.',
      severity: 'error',
      from: { path: '^ui/src/(components|lib)/' },
      to: { path: '^ui/src/features/' },
    },
    {
      name: 'src-not-into-tests',
      comment:
        'Test support (the wire-format fakes of Stripe and Google, fixtures) lives in tests/ and never ships: production code does not import it (test files are excluded below).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^tests/' },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.test\\.ts$|\\.contract\\.ts$|\\.spec\\.ts$|routeTree\\.gen\\.ts$' },
  },
};
