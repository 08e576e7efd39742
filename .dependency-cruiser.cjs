/** Dependencies point inwards: the domain is pure, adapters never reach up into use cases or HTTP. */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports no I/O, framework, clock source, or outer layer; zod only.',
      severity: 'error',
      from: { path: '^src/domain' },
      to: {
        pathNot: ['^src/domain', 'node_modules/zod'],
      },
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
      from: { path: '^src/commands' },
      to: { path: '^src/(http|projections|sagas)' },
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
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.test\\.ts$|\\.contract\\.ts$' },
  },
};
