import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
  'reader',
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
    // Kysely, no database handle, no query builder outside a feature's *.repository.ts.
    files: ['apps/server/src/features/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.test.ts'],
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
    // imports are still allowed here (the session's user type, the rate-limit store's repository type).
    files: ['apps/server/src/{lib,db,http,iiif,ocr,search,storage,backup,audit}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**'],
              allowTypeImports: true,
              message:
                'A cross-cutting folder does not import a feature: move what both need into this folder or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A migration gives the same result whatever the live code becomes: it imports Kysely, the database
    // types, its column helpers and frozen copies of what it computes (db/migrations/frozen-*.ts), nothing else.
    files: ['apps/server/src/db/migrations/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
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
              regex: `^(\\.\\./)+(?!${feature}/)(${WEB_FEATURES.join('|')})/(?!(index|queries)\\.ts$)`,
              message:
                'Another feature is reached through its index.ts or queries.ts only; shared pieces live in components/ or lib/.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
