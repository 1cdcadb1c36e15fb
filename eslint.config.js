// @ts-check
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

// Flat config: eslint's and typescript-eslint's recommended rules, without type information
// (type-aware rules need a whole program per run; `npm run typecheck` checks types already).
export default defineConfig(
  // .scratch/ and .tmp-* are local experiments, never part of the package; generated/ is ajv's standalone code (scripts/spec-schemas.ts).
  { ignores: ['dist/', 'coverage/', 'node_modules/', '.scratch/', '.tmp-*', 'src/domains/openapi-specs/generated/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are deliberately unused (a handler's ignored argument, say).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // destructuring 'all': `let { a, b } = x` where only `a` is reassigned is fine.
      // ignoreReadBeforeAssign: `let ctx; const f = () => ctx; ctx = {...f}` (a context whose
      // parts close over it) is a deliberate two-step initialisation, not a missed `const`.
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests assert on loosely typed JSON bodies; `any` there is the honest type.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
