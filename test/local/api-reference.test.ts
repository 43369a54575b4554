// The API reference in headless Chromium: /docs renders every operation of /openapi.json and
// every rule, under its CSP with nothing blocked and no request leaving the gateway's origin, at
// desktop and phone sizes; the anchors the project links to (/docs#rule-<id>, /docs#<operationId>)
// still land on their rule and operation.
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { RULES } from '../../contract/rules-text';
import { createApp } from '../../gateway/server/app';
import type { CanisterClient } from '../../gateway/ic/canister';
import { DESKTOP, launchBrowser, PHONE, screenshotDir } from '../support/browser';

let browser: Browser;
let origin: string;
let close: () => void;
let operationIds: string[];

beforeAll(async () => {
    // The reference pages never call the canister: an empty client fails any call that would.
    const app = createApp({
        canister: {} as CanisterClient,
        readCacheTtlSeconds: 0,
        signIn: { publicUrl: 'http://localhost', secret: new Uint8Array(32), providers: [] },
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
    const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId: string }>>;
    };
    operationIds = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    close?.();
});

/** A page that records every request it makes and every console error (CSP refusals are some). */
async function recorded(viewport: { width: number; height: number }): Promise<{
    page: Page;
    requests: string[];
    errors: string[];
}> {
    const page = await browser.newPage({ viewport });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => errors.push(String(e)));
    return { page, requests, errors };
}

test('/docs renders every operation and rule from this origin alone, and /docs#<operationId> opens it', async () => {
    const { page, requests, errors } = await recorded(DESKTOP);
    // The old page's anchor of an operation (its id) opens it, under Swagger UI's deep link. A
    // link's query cannot point the page at another document or configuration.
    const id = operationIds[operationIds.length - 1];
    const query = '?url=https://example.com/openapi.json&configUrl=https://example.com/config.json';
    await page.goto(`${origin}/docs${query}#${id}`);
    await page.locator(`[id="operations-default-${id}"].is-open`).waitFor();
    expect(page.url()).toBe(`${origin}/docs${query}#/default/${id}`);
    const shown = await page.$$eval('.opblock', (ops) => ops.map((op) => op.id));
    expect(shown.sort()).toEqual(operationIds.map((o) => `operations-default-${o}`).sort());
    // Every rule is in the reference's introduction, linking to its anchor on the rules page.
    const rules = await page.$$eval('.information-container a[href^="/docs/rules#"]', (links) =>
        links.map((a) => [a.getAttribute('href'), a.textContent]),
    );
    expect(rules).toEqual(RULES.map((r) => [`/docs/rules#rule-${r.id}`, `${r.id} ${r.title}`]));
    const shots = screenshotDir();
    for (const [viewport, file] of [
        [DESKTOP, 'api-reference.png'],
        [PHONE, 'api-reference-phone.png'],
    ] as const) {
        await page.setViewportSize(viewport);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(shots, file) });
    }
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    await page.close();
});

test('/docs#rule-<id> lands on the rule, on the rules page every rule has its anchor', async () => {
    const { page, requests, errors } = await recorded(PHONE);
    const rule = RULES[RULES.length - 1];
    await page.goto(`${origin}/docs#rule-${rule.id}`);
    await page.waitForURL(`${origin}/docs/rules#rule-${rule.id}`);
    await expect(page.locator(`[id="rule-${rule.id}"]`).textContent()).resolves.toContain(rule.title);
    await expect(page.locator(`[id="rule-${rule.id}"]`).isVisible()).resolves.toBe(true);
    const anchors = await page.$$eval('dt[id^="rule-"]', (dts) => dts.map((dt) => dt.id));
    expect(anchors).toEqual(RULES.map((r) => `rule-${r.id}`));
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    await page.close();
});
