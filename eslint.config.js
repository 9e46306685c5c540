import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinRules } from 'eslint/use-at-your-own-risk';

/**
 * ESLint keeps one setting per rule for a file (the last block that names it wins), so two folder rules
 * that both restrict imports or syntax would silently drop one another. Each folder rule below therefore
 * has its own name: a copy of ESLint's no-restricted-imports or no-restricted-syntax under the guji/ prefix.
 */
const guji = {
  rules: {
    'route-imports': builtinRules.get('no-restricted-imports'),
    'route-syntax': builtinRules.get('no-restricted-syntax'),
    'composition-root': builtinRules.get('no-restricted-syntax'),
    'migration-imports': builtinRules.get('no-restricted-imports'),
    'feature-imports': builtinRules.get('no-restricted-imports'),
    'web-data-layer': builtinRules.get('no-restricted-syntax'),
    'repository-writes': builtinRules.get('no-restricted-syntax'),
  },
};

/** The web app's features: each is reached by the others through its index.ts or queries.ts only. */
const WEB_FEATURES = [
  'account',
  'admin',
  'catalog',
  'language',
  'ocr',
  'own',
  'payment',
  'personal',
  'print',
  'public-api',
  'reader',
];

/**
 * An import of a web feature's internals (anything but its index.ts, queries.ts, shell.ts or a stylesheet):
 * index.ts is what other features use, queries.ts its data, shell.ts what the application's shell needs
 * at start (its pages as lazy components, guards; kept light). From inside feature
 * `except` (a sibling feature's folder), or from outside features/ (pages, components, App.tsx).
 */
const otherFeatureInternals = (except) =>
  `^${except ? `(\\.\\./)+(?!${except}/)` : '(\\.\\.?/)+features/'}(${WEB_FEATURES.join('|')})/(?!(index|queries|shell)\\.ts$)(?!.*\\.css$)`;

/** The server's cross-cutting folders (docs/architecture.md, "Which folder may import which"). */
const CROSS_CUTTING = [
  'lib',
  'db',
  'http',
  'iiif',
  'ocr',
  'search',
  'storage',
  'backup',
  'audit',
  'jobs',
  'config',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '.node/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The web app reaches the API through the route contracts of packages/shared (call, hrefOf in
    // api/client.ts), never through a path written by hand.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^\\/api(\\/|$|\\?)/]',
          message: 'Call the API through its contract (packages/shared/src/contracts): call() or hrefOf().',
        },
        {
          selector: 'TemplateElement[value.raw=/^\\/api(\\/|$|\\?)/]',
          message: 'Call the API through its contract (packages/shared/src/contracts): call() or hrefOf().',
        },
      ],
    },
  },
  {
    // Routes and services reach the database through repositories only (docs/architecture.md): no
    // Kysely, no database handle, no query builder outside a *.repository.ts. The database's own folder,
    // the backup (which copies whole tables) and the text indexes (SQL of their own) are the exceptions;
    // the composition root hands the database to the repositories.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      '**/*.repository.ts',
      '**/*.test.ts',
      'apps/server/src/db/**',
      'apps/server/src/backup/**',
      'apps/server/src/search/text-index*.ts',
      'apps/server/src/wiring/repositories.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              message: 'Queries belong in a repository (features/<feature>/*.repository.ts).',
            },
          ],
          patterns: [
            {
              group: ['**/db/database.ts'],
              importNames: ['Db'],
              message: 'Services get repositories and a Transact (db/query.ts), not the database.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|transaction)$/]',
          message:
            'Queries belong in a repository (features/<feature>/*.repository.ts); use a Transact for transactions.',
        },
      ],
    },
  },
  {
    // The cross-cutting folders serve the features and never reach into them (docs/architecture.md,
    // "Which folder may import which"): what both need lives in the cross-cutting folder. Type-only
    // imports are refused too: a type both need lives here (lib/viewer.ts, lib/user-view.ts).
    files: [`apps/server/src/{${CROSS_CUTTING.join(',')}}/**/*.ts`, 'apps/server/src/config.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/context.ts'],
              allowTypeImports: true,
              message:
                "A cross-cutting folder may know the context's type (the routes' plumbing), nothing of its making.",
            },
            {
              group: ['**/features/**', '**/wiring/**'],
              message:
                'A cross-cutting folder does not import a feature: move what both need into this folder or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A feature is given its services; it does not reach into the composition root that makes them.
    files: ['apps/server/src/features/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { guji },
    rules: {
      'guji/feature-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/wiring/**'],
              message: 'A feature is given its services (context.services); it does not import wiring/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Routes (and the hooks beside them) use services, never repositories: what a route needs from the
    // database is a service's method (docs/architecture.md). They get services from context.services.
    files: ['apps/server/src/**/*.{route,guard}.ts', 'apps/server/src/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { guji },
    rules: {
      'guji/route-imports': [
        'error',
        {
          patterns: [
            {
              regex: '\\.repository\\.ts$',
              message: 'A route uses a service (context.services), not a repository.',
            },
          ],
        },
      ],
      'guji/route-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='repos']",
          message: 'A route uses a service (context.services), not a repository.',
        },
      ],
    },
  },
  {
    // Services and repositories are made in one place, the composition root (context.ts and wiring/), and
    // handed to whoever needs them: nothing else constructs one.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      'apps/server/src/context.ts',
      'apps/server/src/wiring/**',
      '**/*.repository.ts',
    ],
    plugins: { guji },
    rules: {
      'guji/composition-root': [
        'error',
        {
          selector: 'NewExpression[callee.name=/(Service|Repository)$/]',
          message: 'Services and repositories are built in the composition root (context.ts, wiring/).',
        },
      ],
    },
  },
  {
    // Transactions that cannot be forgotten (issue 33 part 2): a method that writes takes the change's
    // transaction as a required `tx`, or takes none and is a whole change by itself; never a `tx` that
    // falls back to the pool when a caller leaves it out.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/db/migrations/**'],
    plugins: { guji },
    rules: {
      'guji/repository-writes': [
        'error',
        {
          selector:
            "MethodDefinition:has(AssignmentPattern[left.name='tx']):matches(:has(MemberExpression[property.name=/^(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]), :has(TemplateElement[value.raw=/\\b(insert\\s+into|update\\s+\\w+\\s+set|delete\\s+from)\\b/i]))",
          message:
            'A write takes the transaction as a required `tx` (or none, when it is a whole change by itself), never `tx = this.db`.',
        },
      ],
    },
  },
  {
    // A migration gives the same result whatever the live code becomes: it imports Kysely, the database
    // types, its column helpers and frozen copies of what it computes (db/migrations/frozen-*.ts), nothing else.
    files: ['apps/server/src/db/migrations/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { guji },
    rules: {
      'guji/migration-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!database\\.ts$)',
              message:
                'A migration does not import live code: give it a frozen copy in db/migrations/frozen-*.ts.',
            },
          ],
        },
      ],
    },
  },
  ...WEB_FEATURES.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: otherFeatureInternals(feature),
              message:
                'Another feature is reached through its index.ts, queries.ts or shell.ts only; shared pieces live in components/ or lib/.',
            },
          ],
        },
      ],
    },
  })),
  {
    // Pages and shared components reach a feature through its index.ts or queries.ts as well.
    files: ['apps/web/src/{pages,components}/**/*.{ts,tsx}', 'apps/web/src/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: otherFeatureInternals(undefined),
              message: 'A feature is reached through its index.ts, queries.ts or shell.ts only.',
            },
          ],
        },
      ],
    },
  },
  {
    // One data layer in the web (issue 33 part 4): a feature's calls to the API and their query keys live
    // in its queries.ts; its components and pages, and the shared pages and components, use its hooks
    // and functions.
    files: ['apps/web/src/{features,pages,components}/**/*.{ts,tsx}', 'apps/web/src/*.{ts,tsx}'],
    ignores: ['**/queries.ts', '**/*-queries.ts', '**/*.test.{ts,tsx}'],
    plugins: { guji },
    rules: {
      'guji/web-data-layer': [
        'error',
        {
          selector: "CallExpression[callee.name='call']",
          message: "Call the API from the feature's queries.ts (a hook or a named function), not here.",
        },
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: "Name the query key in the feature's queries.ts (e.g. adminKeys), not inline here.",
        },
      ],
    },
  },
  {
    // Functions a reader can hold (issue 33 part 5): 80 lines at most, blank lines and comments aside, in
    // the server, the web app, the shared package and the benchmarks, with no exception; migrations are
    // frozen declarations of tables, never read to change them. Tests are a list of cases, not logic.
    files: [
      'apps/server/src/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'packages/*/src/**/*.ts',
      'bench/**/*.ts',
    ],
    ignores: ['**/*.test.{ts,tsx}', 'apps/server/src/db/migrations/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
