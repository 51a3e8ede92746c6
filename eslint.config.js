// Type-aware lint for every workspace. `make lint` runs it; CI runs it through `make check`.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Web imports run one way, app -> features -> shared (CONTRIBUTING.md): a feature reaches another feature only
// through its public index.ts and never imports app/; the shared folders import neither features nor app.
const webFeatures = readdirSync(new URL('web/src/features/', import.meta.url));
const webFeatureRules = webFeatures.map((feature) => {
  const others = webFeatures.filter((name) => name !== feature).join('|');
  return {
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${others})/(?!index\\.js$)`,
              message: 'A feature imports another feature only through its public index.ts.',
            },
            { regex: '^(\\.\\./)+app/', message: 'Features never import app/ (app -> features -> shared).' },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'engine/models/**',
      'web/src/api/schema.d.ts',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  // Engine rooms (CONTRIBUTING.md): pixels/ is the kernel; steps/ and analysis/ build on it alone (steps may run a
  // trained network from models/; the plan may name steps' types, never run step code); ocr/ never sees the guard.
  {
    files: ['engine/src/pixels/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*', '!../image.js'], message: 'pixels/ is the kernel: it imports only image.ts.' },
          ],
        },
      ],
    },
  },
  {
    files: ['engine/src/steps/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../pixels/', '!../models/', '!../image.js', '!../errors.js'],
              message: 'steps/ imports only the pixel kernel (pixels/), models/ and image.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['engine/src/analysis/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../pixels/', '!../image.js', '!../steps/'],
              message: 'analysis/ imports only the pixel kernel (pixels/) and image.ts.',
            },
            {
              group: ['../steps/*'],
              allowTypeImports: true,
              message: "analysis/ may name the steps' types (StepCall), never run step code.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['engine/src/ocr/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../guard/*'], message: 'ocr/ never imports the word guard (guard/ builds on ocr/).' },
          ],
        },
      ],
    },
  },
  ...webFeatureRules,
  {
    files: ['web/src/{api,lib,config,components,stores,test}/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(features|app)/',
              message:
                'Shared web code (api, lib, config, components, stores) imports neither features nor app/.',
            },
          ],
        },
      ],
    },
  },
);
