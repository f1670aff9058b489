import { dirname, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const vendorSdks = ['twilio', 'stripe', 'nodemailer'].map((name) => ({
  name,
  message: 'Vendor SDKs are imported only under apps/api/src/integrations.',
}));

const webFeatures = resolve(import.meta.dirname, 'apps/web/src/features');

/** One way per thing: a hand-written UUID pattern beside the shared one (the `{8}-` of its first group gives it away). */
const noHandWrittenUuid = {
  selector: 'Literal[regex.pattern=/\\{8\\}-|\\{36\\}/], Literal[value=/\\{8\\}-|\\{36\\}/]',
  message: 'Check a UUID with isUuid or UUID_PATTERN from @tipcard/shared/uuid (or z.uuid() in a request schema).',
};
/** An answer's schema is `data(schema)` from apps/api/src/lib/envelope.ts, not another `z.object({ data })`. */
const noInlineEnvelope = {
  selector:
    "CallExpression[callee.object.name='z'][callee.property.name='object'] > ObjectExpression.arguments > Property.properties[key.name='data']",
  message: "Wrap an answer's schema with data() from apps/api/src/lib/envelope.ts.",
};
const tests = ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts'];
/** The web app's one widget per thing (issue 25): a file input lives in FileDrop, a placeholder block in Skeleton. */
const oneFilePicker = {
  selector: "JSXAttribute[name.name='type'][value.value='file']",
  message: 'Pick files with FileDrop (apps/web/src/components/ui/file-drop.tsx), the one file picker.',
};
const oneSkeleton = {
  selector: 'Literal[value=/\\banimate-pulse\\b/], TemplateElement[value.raw=/\\banimate-pulse\\b/]',
  message: 'Show a loading placeholder with Skeleton or SkeletonRows (apps/web/src/components/ui/skeleton.tsx).',
};
/** Error codes become text in one place: lib/api-errors.ts (errorCodeText, apiErrorText) through lib/error-text.ts. */
const oneErrorMap = {
  selector: 'Literal[value=/^errors:codes\\./], TemplateElement[value.raw=/errors:codes\\./]',
  message: "Word an error code with errorCodeText or apiErrorText from lib/api-errors.ts, the web app's one error map.",
};

/** The feature folder a file belongs to (`apps/web/src/features/<name>/…`), or null outside the features. */
function featureOf(file) {
  const [name, ...rest] = relative(webFeatures, file).split(sep);
  return name && name !== '..' && rest.length > 0 ? name : null;
}

/**
 * features/x must not import features/y. A path pattern cannot say this (a relative `../y/…` does not name the
 * importer's feature), so the import is resolved against the importing file.
 */
const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      crossFeature:
        'features/{{from}} must not import features/{{to}}: move the shared piece to components/ui, lib or app/session, or let the app compose the two.',
    },
  },
  create(context) {
    const from = featureOf(context.filename);
    if (!from) return {};
    const check = (source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const to = featureOf(resolve(dirname(context.filename), source.value));
      if (to && to !== from) context.report({ node: source, messageId: 'crossFeature', data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

const apiSrc = resolve(import.meta.dirname, 'apps/api/src');
const apiModules = resolve(apiSrc, 'modules');
const compositionRoot = new Set(['app.ts', 'services.ts', 'server.ts'].map((name) => resolve(apiSrc, name)));

/** The API module a file belongs to (`apps/api/src/modules/<name>/…`), or null outside the modules. */
function apiModuleOf(file) {
  const [name, ...rest] = relative(apiModules, file).split(sep);
  return name && name !== '..' && rest.length > 0 ? name : null;
}

/**
 * One door into each API module: from outside modules/y, only `y.service.ts` (and, in a test, a `*.test-support.ts`)
 * may be imported; a module never imports the composition root. Resolved against the importing file, as a relative
 * `../y/…` does not say which module imports it.
 */
const apiModuleDoors = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      notTheDoor:
        '{{from}} must not import modules/{{to}}/{{file}}: a module is reached from outside only through its door, modules/{{to}}/{{to}}.service.ts (re-export what others need there, or move shared technique to apps/api/src/lib).',
      compositionRoot:
        'modules/{{from}} must not import the composition root ({{file}}): take what it needs as a dependency instead.',
    },
  },
  create(context) {
    const from = apiModuleOf(context.filename);
    const isTest = /\.test\.tsx?$/.test(context.filename);
    const check = (source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const target = resolve(dirname(context.filename), source.value);
      if (from && compositionRoot.has(target)) {
        context.report({ node: source, messageId: 'compositionRoot', data: { from, file: relative(apiSrc, target) } });
        return;
      }
      const to = apiModuleOf(target);
      if (!to || to === from) return;
      const file = relative(resolve(apiModules, to), target).split(sep).join('/');
      if (file === `${to}.service.ts` || (isTest && file.endsWith('.test-support.ts'))) return;
      context.report({
        node: source,
        messageId: 'notTheDoor',
        data: { from: from ? `modules/${from}` : relative(apiSrc, context.filename), to, file },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-server/**',
      '**/node_modules/**',
      'data/**',
      '**/migrations/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // No import cycles. Every relative import names its file with its extension and a workspace is a linked package with
  // an exports map, so Node's resolution finds every edge without the TypeScript resolver. Type-only imports are not
  // edges here: they vanish at run time. Packages outside the tree are not walked (ignoreExternal), which keeps it fast.
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Tests may assert a stricter shape (a version 4 id) with a regex of their own.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: [...tests, 'packages/shared/src/uuid.ts'],
    rules: { 'no-restricted-syntax': ['error', noHandWrittenUuid] },
  },
  // A later block's options replace an earlier one's, so the UUID selector is listed again here.
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: [...tests, 'apps/api/src/lib/envelope.ts'],
    rules: { 'no-restricted-syntax': ['error', noHandWrittenUuid, noInlineEnvelope] },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/fake-*.ts', 'apps/api/src/test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // Every browser test runs on its worker's own server: Playwright's test and expect come through the fixture.
  {
    files: ['e2e/tests/**'],
    ignores: ['e2e/tests/fixtures.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              message: "Import test, expect and Playwright's types from './fixtures.ts' (one server per worker, decision 0040).",
            },
          ],
        },
      ],
    },
  },
  // One-way imports: shared knows no app; a module reaches another module only through its service.
  {
    files: ['packages/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@tipcard/api*', '@tipcard/web*', '**/apps/**'], message: 'packages/shared must not depend on an app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/**'],
    ignores: ['apps/api/src/integrations/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: vendorSdks,
          patterns: [
            {
              group: ['../*/*.repository.ts', '../*/*.repository'],
              message: "Call the other module's service, not its repository.",
            },
          ],
        },
      ],
    },
  },
  // One door into each API module (issue 25 item 2). The composition root wires every module's routes and jobs;
  // integrations implement a module's port (payment-provider.ts, mailer.ts, sms-sender.ts).
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/{app,services,server}.ts', 'apps/api/src/integrations/**'],
    plugins: { api: { rules: { 'module-doors': apiModuleDoors } } },
    rules: { 'api/module-doors': 'error' },
  },
  // A later block's options replace an earlier one's, so the UUID selector is listed again here.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: [...tests, 'apps/web/src/components/ui/{file-drop,skeleton}.tsx', 'apps/web/src/lib/{api-errors,error-text}.ts'],
    rules: { 'no-restricted-syntax': ['error', noHandWrittenUuid, oneFilePicker, oneSkeleton, oneErrorMap] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['apps/web/src/lib/**', 'apps/web/src/components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/app/**'],
              message: 'lib and components are shared: they must not import features or the app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/app/session/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/features/**'], message: 'Features read app/session: it must not import a feature.' }] },
      ],
    },
  },
  {
    files: ['apps/web/src/features/**'],
    plugins: { web: { rules: { 'no-cross-feature-imports': noCrossFeatureImports } } },
    rules: {
      'web/no-cross-feature-imports': 'error',
      // The signed-in user's data (app/session) is what every feature reads; the rest of app is wiring above them.
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)app/(?!session/)', message: 'Features may import app/session only, not the app wiring.' }] },
      ],
    },
  },
);
