// The API reference is generated from the routes themselves: every route the app serves has
// its entry in /openapi.json (and the reverse; the dashboard's JSON API too), with a summary
// and a response schema; /docs loads its renderer from this origin alone and /docs/rules has
// every rule at its anchor (test/local/api-reference.test.ts renders them in Chromium).
import type express from 'express';

import { createApp } from '../../gateway/server/app';
import type { CanisterClient } from '../../gateway/ic/canister';
import { expressPath } from '../../gateway/routes/route';
import { RULES } from '../../contract/rules-text';
import { API_VERSION } from '../../contract/http';
import { startService, type TestService } from '../support/gateway';

interface Layer {
    route?: { path: string; methods: Record<string, boolean> };
    /** Where a router is mounted. */
    rawPath?: unknown;
    handle?: { stack?: Layer[] };
}

/** (method, path) of every route a router serves, its sub-routers' included, in the reference's template form. */
function routesOf(stack: Layer[], prefix = ''): string[] {
    return stack.flatMap((layer) => {
        if (layer.route !== undefined)
            return Object.keys(layer.route.methods).map(
                (m) => `${m.toUpperCase()} ${prefix}${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`,
            );
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        return layer.handle?.stack === undefined ? [] : routesOf(layer.handle.stack, prefix + mount);
    });
}

/**
 * Every JSON route the app serves: the API and the dashboard's JSON API (/dashboard/api), not
 * the pages (the link page, the dashboard's pages, the reference's pages and assets) nor the operator's
 * /metrics (docs/operations.md).
 */
function servedRoutes(app: express.Express): string[] {
    const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
    return routesOf(stack).filter((r) => {
        const path = r.slice(r.indexOf(' ') + 1);
        if (['/openapi.json', '/metrics'].includes(path) || /^\/(docs|link)(\/|$)/.test(path)) return false;
        return !path.startsWith('/dashboard') || path.startsWith('/dashboard/api/');
    });
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
    const app = createApp({
        canister: {} as CanisterClient,
        readCacheTtlSeconds: 0,
        signIn: { publicUrl: 'http://localhost', secret: new Uint8Array(32), providers: [] },
    });
    expect(new Set(documented)).toEqual(new Set(servedRoutes(app)));
    expect(documented.length).toBeGreaterThanOrEqual(19);
    // The dashboard's JSON API is in the reference, with its credential and schemas.
    expect(documented).toEqual(
        expect.arrayContaining([
            'GET /dashboard/api/me',
            'GET /dashboard/api/games/{gameId}/boards/{boardId}/entries',
            'DELETE /dashboard/api/games/{gameId}/boards/{boardId}/entries/{playerId}',
            'POST /dashboard/api/games/{gameId}/players/{playerId}/wipe',
            'PUT /dashboard/api/games/{gameId}/bans/{playerId}',
            'DELETE /dashboard/api/games/{gameId}/bans/{playerId}',
            'GET /dashboard/api/games/{gameId}/moderation-log',
            'GET /dashboard/api/games/{gameId}/suspicion-log',
            'GET /dashboard/api/games/{gameId}/analytics',
        ]),
    );
    const ban = doc.paths['/dashboard/api/games/{gameId}/bans/{playerId}'].put;
    expect(ban.security).toEqual([{ dashboardSession: [] }]);
    expect(ban.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'X-CSRF-Token' })]));
    expect(ban.requestBody.content['application/json'].schema).toMatchObject({
        properties: { reason: { anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] } },
    });
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
            // JSON routes describe their `data`; a download (the CSV export) its media type instead.
            const content = op.responses['200'].content;
            if (path.endsWith('/export'))
                expect(content).toEqual({ 'text/csv; charset=utf-8': { schema: { type: 'string' } } });
            else if (path.endsWith('/backup'))
                expect(content).toEqual({ 'application/jsonl; charset=utf-8': { schema: { type: 'string' } } });
            else expect(content['application/json'].schema.properties.data).toBeDefined();
            for (const p of (path.match(/\{(\w+)\}/g) ?? []).map((x) => x.slice(1, -1))) {
                expect(op.parameters.some((q: { name: string; in: string }) => q.name === p && q.in === 'path')).toBe(
                    true,
                );
            }
        }
    }
    expect(doc.paths['/scores'].post.requestBody.content['application/json'].schema).toMatchObject({
        required: ['score', 'streak'],
        properties: {
            nickname: { anyOf: [{ minLength: 3, maxLength: 16, pattern: '^[A-Za-z0-9_]+$' }, { type: 'null' }] },
        },
    });
    expect(doc.paths['/games/{gameId}/scoreboards/{boardId}'].get.responses['404']).toBeDefined();
});

test('/docs loads its renderer and script from this origin alone, under a CSP without eval', async () => {
    const res = await s.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const loads = [...res.text.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(loads).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/reference.js']));
    for (const url of loads.filter((u) => u.startsWith('/docs/assets/'))) {
        expect({ url, status: (await s.request('GET', url)).status }).toEqual({ url, status: 200 });
    }
    expect(loads.filter((u) => !u.startsWith('/') && !u.startsWith('data:'))).toEqual([]);
    // Only the files the page loads: not the package's own pages (its index.html fetches a demo API).
    for (const other of ['index.html', 'swagger-initializer.js', 'package.json', '..%2Fdocs.ts', 'constructor']) {
        expect((await s.request('GET', `/docs/assets/${other}`)).status).toBe(404);
    }
});

test('every rule has its anchor on /docs/rules and is in the reference: its title linked, its text in x-rules', async () => {
    const page = await s.request('GET', '/docs/rules');
    expect(page.status).toBe(200);
    for (const rule of RULES) expect(page.text).toContain(`id="rule-${rule.id}"`);
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const { info } = (await s.request('GET', '/openapi.json')).body;
    for (const rule of RULES) expect(info.description).toContain(`(/docs/rules#rule-${rule.id})`);
    expect(info['x-rules']).toEqual(RULES);
});

test('Express route syntax comes from the reference template', () => {
    expect(expressPath('/games/{gameId}/scoreboards/{boardId}')).toBe('/games/:gameId/scoreboards/:boardId');
});
