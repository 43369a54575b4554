// GET /demo: a small reaction game (wait for green, tap; lower is better) built on the
// JavaScript client alone, for the game configured as the demo (npm start's demo game, or
// DEMO_GAME_ID and DEMO_API_KEY in production); and /client/*, the client's browser bundle,
// which any web page may load from here.
import * as fs from 'node:fs';
import * as path from 'node:path';

import express, { Router, type Response } from 'express';

import { DIRECT_READ_WINDOW_SECONDS } from '../../contract/http';
import { escapeHtml } from './layout';

export interface DemoConfig {
    gameId: string;
    /** The game's API key: it ships in every game, the page is no different. */
    apiKey: string;
    /** A lowest-first targeted board (npm start creates `reaction`: asc, milliseconds). */
    boardId: string;
    /** Where the page reads the board straight from the canister, to verify it. */
    canisterUrl?: string;
    /** Whose root key verifies: the IC's, or (`local`) the local replica's. */
    network: 'ic' | 'local';
    /** The game's floor (its minScore cap, ms): a quicker tap is told it was a guess, not sent. */
    minScore?: number;
}

/** The client's browser bundle (client/dist/browser, made by the client's build, which npm start runs). */
export const CLIENT_BUNDLE_DIR = path.resolve(__dirname, '..', '..', 'client', 'dist', 'browser');

function demoHeaders(res: Response, canisterUrl: string | undefined): void {
    // The canister's origin for the direct read (and, locally, the replica's /api/v2/status).
    const canister = canisterUrl === undefined ? '' : ` ${new URL(canisterUrl).origin}`;
    res.set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'same-origin',
        'Content-Security-Policy': `default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'${canister}; img-src data:; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
    });
}

const STYLE = `
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#17202e;background:#eef1f6;display:flex;justify-content:center}
main{width:100%;max-width:480px;padding:12px 12px 32px}
header{display:flex;align-items:center;justify-content:space-between;gap:8px;margin:4px 0 12px}
h1{font-size:22px;margin:0}
h2{font-size:17px;margin:0 0 8px;display:flex;align-items:center;justify-content:space-between;gap:8px}
#pad{display:flex;flex-direction:column;align-items:center;justify-content:center;width:100%;height:36vh;min-height:200px;border:0;border-radius:18px;font-family:inherit;font-size:34px;font-weight:700;line-height:1.2;color:#fff;background:#3451b2;cursor:pointer;touch-action:manipulation;user-select:none;-webkit-user-select:none}
#pad small{font-size:16px;font-weight:500;opacity:.9;margin-top:8px}
#pad[data-state=waiting]{background:#b42318}
#pad[data-state=go]{background:#067647}
#pad[data-state=early]{background:#b54708}
.card{background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(16,24,40,.12);padding:14px;margin-top:12px}
ol{list-style:none;margin:0;padding:0}
li{display:grid;grid-template-columns:2.4em 1fr auto;gap:6px;padding:6px 4px;border-bottom:1px solid #eef1f6;font-variant-numeric:tabular-nums}
li:last-child{border-bottom:0}
li.me{background:#eef4ff;border-radius:8px;font-weight:700}
li .rank{color:#5b6577}
.muted{color:#5b6577;font-size:14px;margin:0}
.note{margin-top:8px}
.badge{font-size:13px;font-weight:700;border-radius:999px;padding:3px 10px;white-space:nowrap;background:#e4e7ec;color:#344054}
.badge[data-verified=yes]{background:#dcfae6;color:#067647}
.badge[data-verified=no]{background:#fee4e2;color:#b42318}
button.secondary{font-family:inherit;font-size:15px;font-weight:600;line-height:1.2;padding:10px 14px;border-radius:10px;border:1.5px solid #3451b2;background:#fff;color:#3451b2;cursor:pointer}
#signin-code{font:700 26px/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.1em;text-align:center;margin:8px 0}
#signin-qr{display:block;margin:0 auto;width:180px;height:180px;image-rendering:pixelated}
.error{color:#b42318}
#tampered{font-size:14px;margin:0 0 8px}
[hidden]{display:none!important}`;

function page(demo: DemoConfig): string {
    const attr = (value: string): string => escapeHtml(value);
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><title>Reaction: a leaderboard demo</title><style>${STYLE}</style></head>
<body><main id="demo" data-game-id="${attr(demo.gameId)}" data-api-key="${attr(demo.apiKey)}" data-board-id="${attr(demo.boardId)}" data-canister-url="${attr(demo.canisterUrl ?? '')}" data-network="${attr(demo.network)}" data-min-score="${attr(String(demo.minScore ?? 0))}">
<header><h1>Reaction</h1><span id="who" class="muted">anonymous</span></header>
<button id="pad" type="button" data-state="idle">Tap to start<small>Wait for green, then tap as fast as you can</small></button>
<p id="status" class="muted" role="status"></p>
<section class="card"><h2>Top 10 <span id="badge" class="badge" data-verified="unknown">checking…</span></h2><p id="tampered" class="error" hidden>This board did not come from the canister unchanged: something between you and it altered it.</p><ol id="top"></ol><p id="top-empty" class="muted" hidden>No times yet: be the first.</p><p class="muted note">Certified, updated every ${DIRECT_READ_WINDOW_SECONDS} s: a new time shows under "Around you" first.</p></section>
<section class="card"><h2>Around you</h2><ol id="around"></ol><p id="around-empty" class="muted">Play a round to get on the board.</p></section>
<section class="card"><h2>Keep your times <button id="signin" class="secondary" type="button">Sign in</button></h2>
<p class="muted" id="signin-hint">Anonymous on this device; sign in to keep your times on any device.</p>
<div id="signin-box" hidden><p class="muted">Scan the code or open <a id="signin-link" href="#" target="_blank" rel="noopener noreferrer"></a> and enter:</p><p id="signin-code"></p><img id="signin-qr" alt="QR code to sign in"></div></section>
</main><script type="module" src="/demo/demo.js"></script></body></html>`;
}

export function demoPages(demo: DemoConfig | undefined, clientDir = CLIENT_BUNDLE_DIR): Router {
    const router = Router();
    // The client's browser bundle: module chunks and the verifier's wasm, loaded by pages from here.
    router.use(
        '/client',
        express.static(clientDir, { index: false, redirect: false, fallthrough: true, maxAge: 3_600_000 }),
    );
    if (demo === undefined) return router;
    router.get('/demo', (_req, res) => {
        if (!fs.existsSync(path.join(clientDir, 'leaderboard-client.js'))) {
            res.status(503).json({ ok: false, error: 'The demo needs the client built: npm run build in client/' });
            return;
        }
        demoHeaders(res, demo.canisterUrl);
        res.send(page(demo));
    });
    router.get('/demo/demo.js', (_req, res) => {
        res.set('Cache-Control', 'public, max-age=300')
            .type('application/javascript')
            .sendFile(path.join(__dirname, 'demo-browser.js'), { dotfiles: 'allow' }); // wherever the checkout lives
    });
    return router;
}
