import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The one-way imports of DESIGN.md §1, enforced so nobody has to remember them.
const layers = ['domain', 'vision', 'commands', 'projections', 'workers', 'http', 'infra'];
const forbidLayers = (...names) => names.map((name) => `**/${name}/**`);
const io = ['node:fs', 'node:fs/*', 'node:net', 'node:http', 'node:https', 'node:child_process', 'pg', 'kysely', 'ioredis', 'bullmq', 'fastify', '@electric-sql/*'];

const layerRule = (files, patterns, message, extra = {}) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
    ...extra,
  },
});

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'web/src/route-tree.gen.ts', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  layerRule(
    ['src/domain/**'],
    [...forbidLayers(...layers.filter((l) => l !== 'domain')), ...io, 'sharp', 'node:crypto'],
    'domain is pure: no I/O; pass clocks, ids and randomness in (DESIGN.md §1).',
    {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'domain takes randomness as an argument.' },
        { object: 'Date', property: 'now', message: 'domain takes the time as an argument.' },
      ],
      'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'domain takes the time as an argument.' }],
    },
  ),
  layerRule(['src/vision/**'], [...forbidLayers('domain', 'commands', 'projections', 'workers', 'http', 'infra'), ...io.filter((m) => !m.startsWith('node:fs'))], 'vision is pure computation over pixels (DESIGN.md §1).'),
  layerRule(['src/commands/**'], forbidLayers('vision', 'projections', 'workers', 'http'), 'commands use domain and the event store (DESIGN.md §1).'),
  layerRule(['src/projections/**'], forbidLayers('vision', 'commands', 'workers', 'http'), 'projections use event types and the database (DESIGN.md §1).'),
  layerRule(['src/workers/**'], forbidLayers('http'), 'workers never call into http (DESIGN.md §1).'),
  layerRule(['src/http/**'], forbidLayers('vision'), 'http reaches vision through workers (DESIGN.md §1).'),
  layerRule(['src/contracts/**'], [...forbidLayers(...layers), ...io], 'contracts are shared with the web app: zod schemas only.'),
  layerRule(
    ['web/**'],
    ['**/src/domain/**', '**/src/vision/**', '**/src/commands/**', '**/src/projections/**', '**/src/workers/**', '**/src/http/**', '**/src/infra/**', '**/src/config.ts'],
    'web imports only contracts from the server side (DESIGN.md §1).',
  ),
);
