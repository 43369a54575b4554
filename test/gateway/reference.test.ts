// The API reference is generated from the routes themselves: every route the app serves has
// its entry in /openapi.json (and the reverse), with a summary and a response schema, and the
// /docs page shows them all with the contract's rules, with no external requests.
import type express from 'express';

import { createApp } from '../../gateway/app';
import type { CanisterClient } from '../../gateway/canister';
import { expressPath } from '../../gateway/route';
import { RULES } from '../../contract/rules-text';
import { API_VERSION } from '../../contract/http';
import { startService, type TestService } from '../support/gateway';

/** (method, path) of every route Express serves, in the reference's template form. */
function servedRoutes(app: express.Express): string[] {
    const stack = (
        app as unknown as { router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> } }
    ).router.stack;
    return stack
        .filter((layer) => layer.route !== undefined)
        .flatMap((layer) =>
            Object.keys(layer.route!.methods).map(
                (m) => `${m.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`,
            ),
        )
        .filter((r) => r !== 'GET /openapi.json' && r !== 'GET /docs');
}

let s: TestService;
beforeAll(async () => {
    s = await startService();
});
afterAll(() => s.stop());

test('every served route has its reference entry and every entry is served', async () => {
    const doc = (await s.request('GET', '/openapi.json')).body;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const app = createApp({ canister: {} as CanisterClient, readCacheTtlSeconds: 0 });
    expect(new Set(documented)).toEqual(new Set(servedRoutes(app)));
    expect(documented.length).toBeGreaterThanOrEqual(19);
});

test('the reference is OpenAPI 3.1 with a summary, an id and a response schema for every operation', async () => {
    const doc = (await s.request('GET', '/openapi.json')).body;
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { version: API_VERSION } });
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
        for (const [method, op] of Object.entries(ops)) {
            expect({ path, method, summary: typeof op.summary }).toEqual({ path, method, summary: 'string' });
            expect(ids.has(op.operationId)).toBe(false);
            ids.add(op.operationId);
            expect(op.responses['200'].content['application/json'].schema.properties.data).toBeDefined();
            for (const p of (path.match(/\{(\w+)\}/g) ?? []).map((x) => x.slice(1, -1))) {
                expect(op.parameters.some((q: { name: string; in: string }) => q.name === p && q.in === 'path')).toBe(
                    true,
                );
            }
        }
    }
    expect(doc.paths['/scores'].post.requestBody.content['application/json'].schema).toMatchObject({
        required: ['playerId', 'score', 'streak'],
        properties: {
            nickname: { anyOf: [{ minLength: 3, maxLength: 16, pattern: '^[A-Za-z0-9_]+$' }, { type: 'null' }] },
        },
    });
    expect(doc.paths['/games/{gameId}/scoreboards/{boardId}'].get.responses['404']).toBeDefined();
});

test('/docs is one self-contained HTML page: every operation and rule has an anchor, nothing is fetched elsewhere', async () => {
    const res = await s.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const doc = (await s.request('GET', '/openapi.json')).body;
    for (const ops of Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
        for (const op of Object.values(ops)) expect(res.text).toContain(`id="${op.operationId}"`);
    }
    for (const rule of RULES) expect(res.text).toContain(`id="rule-${rule.id}"`);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
});

test('Express route syntax comes from the reference template', () => {
    expect(expressPath('/games/{gameId}/scoreboards/{boardId}')).toBe('/games/:gameId/scoreboards/:boardId');
});
