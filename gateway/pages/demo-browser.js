// The /demo page's game, on the JavaScript client alone: wait for green, tap; the time (ms,
// lower is better) goes to the demo's lowest-first board. The top 10 comes straight from the
// canister and is marked verified (green) only when its certificate checks out; around-me
// comes through the API. Text from other players only ever goes in as text (textContent).
/* global document, location, performance, setTimeout, clearTimeout, setInterval, AbortController */
import { createClient, formatScore } from '/client/leaderboard-client.js';

const root = document.getElementById('demo');
const cfg = root.dataset;
const client = createClient({
    baseUrl: location.origin,
    apiKey: cfg.apiKey,
    gameId: cfg.gameId,
    canisterUrl: cfg.canisterUrl || undefined,
    network: cfg.network === 'local' ? 'local' : 'ic',
});
const BOARD = cfg.boardId;
const MIN_MS = Number(cfg.minScore) || 0;
const MS = { kind: 'milliseconds' };
const $ = (id) => document.getElementById(id);
const pad = $('pad');

let state = 'idle';
let timer;
let goAt = 0;
let myRank;

function show(next, title, hint) {
    state = next;
    pad.dataset.state = next;
    pad.textContent = title;
    if (hint) {
        const small = document.createElement('small');
        small.textContent = hint;
        pad.append(small);
    }
}

function status(text, error = false) {
    $('status').textContent = text;
    $('status').classList.toggle('error', error);
}

function tap() {
    if (state === 'waiting') {
        clearTimeout(timer);
        show('early', 'Too soon!', 'Wait for green. Tap to try again');
    } else if (state === 'go') {
        const ms = Math.max(1, Math.round(performance.now() - goAt));
        if (ms < MIN_MS) {
            // The game refuses it anyway (its minScore): quicker than a human reacts is a guess.
            show('early', `${ms} ms?`, `Under ${MIN_MS} ms is a guess, not a reaction. Tap to try again`);
            return;
        }
        show('result', `${ms} ms`, 'Tap to play again');
        void submit(ms);
    } else {
        show('waiting', 'Wait for green…');
        timer = setTimeout(
            () => {
                goAt = performance.now();
                show('go', 'Tap!');
            },
            1500 + Math.random() * 2500,
        );
    }
}

pad.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    tap();
});
pad.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    if (!e.repeat) tap();
});

async function submit(ms) {
    status('Saving…');
    try {
        await client.submitScore({ score: ms, streak: 0, scoreboardId: BOARD });
        status(`Saved: ${formatScore(ms, MS)}`);
    } catch (e) {
        status(`Not saved: ${e.message}`, true);
    }
    await refresh();
}

function render(list, empty, entries) {
    const items = entries.map((entry) => {
        const li = document.createElement('li');
        if (entry.rank === myRank) li.className = 'me';
        for (const [cls, text] of [
            ['rank', `${entry.rank}.`],
            ['name', entry.nickname],
            ['score', formatScore(entry.score, MS)],
        ]) {
            const span = document.createElement('span');
            span.className = cls;
            span.textContent = text;
            li.append(span);
        }
        return li;
    });
    $(list).replaceChildren(...items);
    $(empty).hidden = entries.length > 0;
}

function badge(verified, text) {
    $('badge').dataset.verified = verified;
    $('badge').textContent = text;
    $('tampered').hidden = verified !== 'no';
}

/** The top 10: a certified direct read when it verifies; else what came, marked NOT verified. */
async function top() {
    let board;
    try {
        board = await client.direct.board(BOARD, { limit: 10, verify: true });
        badge('yes', '✓ verified');
    } catch (e) {
        if (e.kind === 'not-verified') {
            badge('no', '✗ NOT verified');
            board = await client.direct.board(BOARD, { limit: 10 }).catch(() => client.board(BOARD, { limit: 10 }));
        } else {
            badge('unknown', 'not checked');
            board = await client.board(BOARD, { limit: 10 });
        }
    }
    render('top', 'top-empty', board.entries);
}

async function around() {
    try {
        const near = await client.aroundMe(BOARD, { before: 2, after: 2 });
        myRank = near.rank;
        render('around', 'around-empty', near.entries);
    } catch (e) {
        if (e.kind !== 'not-found') throw e;
        myRank = undefined;
        render('around', 'around-empty', []);
    }
}

async function refresh() {
    try {
        await around();
        await top();
    } catch (e) {
        status(`Could not load the board: ${e.message}`, true);
    }
}

// ---- sign-in -------------------------------------------------------------------------------------

let signingIn;

function who(text) {
    $('who').textContent = text;
    $('signin').textContent = client.signedIn ? 'Sign out' : 'Sign in';
}

async function signIn() {
    signingIn = new AbortController();
    $('signin').textContent = 'Cancel';
    try {
        const approval = await client.signIn({
            signal: signingIn.signal,
            onCode(code) {
                $('signin-code').textContent = code.userCode;
                if (code.qrDataUrl.startsWith('data:image/png;base64,')) $('signin-qr').src = code.qrDataUrl;
                const link = $('signin-link');
                if (/^https?:\/\//.test(code.verificationUrlComplete)) link.href = code.verificationUrlComplete;
                link.textContent = code.verificationUrl;
                $('signin-box').hidden = false;
            },
        });
        who(`signed in as ${approval.nickname}`);
        status('Signed in: your times now count for your account.');
        await refresh();
    } catch (e) {
        status(`Not signed in: ${e.message}`, true);
        who('anonymous');
    } finally {
        signingIn = undefined;
        $('signin-box').hidden = true;
    }
}

$('signin').addEventListener('click', async () => {
    if (signingIn !== undefined) return signingIn.abort();
    if (client.signedIn) {
        await client.signOut().catch(() => undefined);
        who('anonymous');
        return refresh();
    }
    return signIn();
});

who(client.signedIn ? 'signed in' : 'anonymous');
void refresh();
setInterval(() => void refresh(), 15_000);
