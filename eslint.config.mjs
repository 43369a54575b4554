// ESLint (flat config) for the whole repository, with the parts' boundaries read from their
// package.json files; formatting is Prettier's job (.prettierrc.json).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * The parts are the npm workspaces of the root package.json, each a top-level folder with its
 * own package.json, and the parts a part may import are the `@leaderboard/*` packages its
 * `dependencies` (or, for the published client, `devDependencies`) list: the canister and the gateway only the contract; the replica, a stand-in
 * for any IC, nothing of ours; the local stack what it runs. Those files are the one place the
 * rule is written; this reads them. `folders`: package name → folder; `may`: folder → the
 * folders it may import.
 */
export function readParts(root = ROOT) {
    const read = (dir) => JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    const manifests = Object.fromEntries((read('.').workspaces ?? []).map((dir) => [dir, read(dir)]));
    const folders = new Map(Object.entries(manifests).map(([dir, { name }]) => [name, dir]));
    const may = Object.fromEntries(
        // devDependencies count too: the published client bundles the contract's types at build time.
        Object.entries(manifests).map(([dir, { dependencies = {}, devDependencies = {} }]) => [
            dir,
            Object.keys({ ...dependencies, ...devDependencies }).flatMap((dep) =>
                folders.has(dep) ? [folders.get(dep)] : [],
            ),
        ]),
    );
    return { manifests, folders, may };
}

const PARTS = readParts();

const partOf = (file) => {
    const rel = path.relative(ROOT, file);
    return rel.startsWith('..') || !rel.includes(path.sep) ? undefined : rel.split(path.sep)[0];
};

/**
 * An import of another top-level folder (relative, or by a part's package name) that the
 * importing part's package.json does not list is an error.
 */
const boundaries = {
    meta: {
        type: 'problem',
        schema: [],
        messages: {
            crossing:
                "'{{from}}' may not import from '{{to}}' ({{spec}}): {{from}}/package.json does not list {{wanted}} in its dependencies",
        },
    },
    create(context) {
        const file = context.filename;
        const from = partOf(file);
        if (from === undefined || !(from in PARTS.may)) return {};
        const check = (node, spec) => {
            if (typeof spec !== 'string') return;
            const to = spec.startsWith('.')
                ? partOf(path.resolve(path.dirname(file), spec))
                : PARTS.folders.get(spec.split('/').slice(0, 2).join('/'));
            if (to === undefined || to === from || PARTS.may[from].includes(to)) return;
            const wanted = PARTS.manifests[to]?.name ?? `'${to}' (no part: not a workspace)`;
            context.report({ node, messageId: 'crossing', data: { from, to, spec, wanted } });
        };
        return {
            ImportDeclaration: (node) => check(node, node.source.value),
            ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
            ExportAllDeclaration: (node) => check(node, node.source.value),
            ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
            CallExpression: (node) =>
                node.callee.type === 'Identifier' &&
                node.callee.name === 'require' &&
                node.arguments[0]?.type === 'Literal' &&
                check(node, node.arguments[0].value),
            TSImportEqualsDeclaration: (node) =>
                node.moduleReference.type === 'TSExternalModuleReference' &&
                check(node, node.moduleReference.expression.value),
            TSImportType: (node) => check(node, node.argument?.literal?.value),
        };
    },
};

export default tseslint.config(
    {
        ignores: [
            'node_modules/',
            '.azle/',
            '.dfx/',
            'data/',
            'coverage/',
            '.scratch/',
            'client/dist/',
            'test/replica/canisters/**/.azle/',
        ],
    },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
        plugins: { parts: { rules: { boundaries } } },
        rules: {
            'parts/boundaries': 'error',
            eqeqeq: ['error', 'always'],
            'no-control-regex': 'off', // the contract's rules match control characters on purpose
            '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
            '@typescript-eslint/no-unused-vars': [
                'error',
                { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
            ],
        },
    },
    {
        files: ['canister/**/*.ts'],
        rules: {
            'no-restricted-imports': [
                'error',
                {
                    paths: [
                        {
                            name: 'azle',
                            importNames: ['clearTimer', 'candidDecode'],
                            message:
                                "Azle 0.33's clearTimer traps (it drops the timer's closure inside the running context); candidDecode prints Candid as text, which is no way to read a field: decode with IDL instead.",
                        },
                    ],
                },
            ],
        },
    },
    {
        // Tests poke at JSON of any shape.
        files: ['test/**/*.ts'],
        rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
    },
    {
        files: ['**/*.cjs', 'jest.config.js'],
        languageOptions: {
            sourceType: 'commonjs',
            globals: {
                require: 'readonly',
                module: 'writable',
                __dirname: 'readonly',
                __filename: 'readonly',
                process: 'readonly',
                console: 'readonly',
            },
        },
        rules: { '@typescript-eslint/no-require-imports': 'off' },
    },
    prettier,
);
