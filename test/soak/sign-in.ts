// The soak's sign-ins as people make them, over HTTP: a player's device code approved on the
// link page with a new account at the built-in provider (then the game's poll gets the
// session), and a developer signed in to the dashboard the same way, registering a game there.
import { formBrowser, formIn, submit, type FormBrowser, type Page } from './forms';
import { api } from './http';
import type { Recorder } from './record';

/** The soak's accounts' password (the provider asks for at least 12 characters). */
const PASSWORD = 'soak horse battery staple';
/** The built-in provider's button on the link page and the dashboard's sign-in page. */
const LOCAL_PROVIDER_BUTTON = 'Sign in with a local account';

/** At the provider's sign-in page: opens "Create an account" and signs up; returns where the flow lands. */
async function signUp(b: FormBrowser, kind: string, signInPage: Page, email: string, name: string): Promise<Page> {
    const link = /href="([^"]*\/signup)"/.exec(signInPage.text)?.[1];
    if (link === undefined)
        throw new Error(`${kind}: no sign-up link on ${signInPage.url}: ${signInPage.text.slice(0, 300)}`);
    const form = await b.go(kind, new URL(link.replace(/&amp;/g, '&'), signInPage.url).href);
    return submit(b, kind, form, 'Create account', { email, password: PASSWORD, name });
}

export interface SignedInPlayer {
    token: string;
    /** The game's headers of a signed-in player as the Godot 4 SDK sends them: session and game only. */
    headers: Record<string, string>;
    nickname: string;
}

/** A device code of `gameId`, approved on the link page by a new account `email`, then redeemed by the game's poll. */
export async function signInPlayer(
    rec: Recorder,
    base: string,
    gameId: string,
    email: string,
    nickname: string,
): Promise<SignedInPlayer> {
    const gameHeaders = { 'X-Game-ID': gameId };
    const started = await api(rec, 'sign-in: device code', `${base}/auth/device/code`, {
        method: 'POST',
        headers: gameHeaders,
        body: { nickname },
    });
    if (started?.status !== 200) throw new Error(`device code: ${started?.status} ${started?.text}`);
    const code = started.body.data as { device_code: string; verification_url_complete: string };
    const b = formBrowser(rec);
    const confirm = await b.go('sign-in: link page', code.verification_url_complete);
    const provider = await submit(b, 'sign-in: link page', confirm, LOCAL_PROVIDER_BUTTON);
    const done = await signUp(b, 'sign-in: provider', provider, email, nickname);
    if (!done.text.includes("You're signed in"))
        throw new Error(`link page: ${done.status} ${done.text.slice(0, 300)}`);
    const approved = await api(rec, 'sign-in: device token', `${base}/auth/device/token`, {
        method: 'POST',
        headers: gameHeaders,
        body: { device_code: code.device_code },
    });
    if (approved?.status !== 200) throw new Error(`device token: ${approved?.status} ${approved?.text}`);
    const token = approved.body.data.sessionId as string;
    return { token, headers: { 'X-Session-Token': token, 'X-Game-ID': gameId }, nickname: approved.body.data.nickname };
}

export interface Developer {
    /** The dashboard API's credentials: the session cookie and the forms' CSRF token. */
    headers: Record<string, string>;
    browser: FormBrowser;
}

/** A developer's new account, signed in to the dashboard; the games page's CSRF token for the JSON API. */
export async function signInDeveloper(rec: Recorder, base: string, email: string): Promise<Developer> {
    const b = formBrowser(rec);
    const page = await b.go('dashboard: sign-in', `${base}/dashboard/sign-in`);
    const provider = await submit(b, 'dashboard: sign-in', page, LOCAL_PROVIDER_BUTTON);
    const games = await signUp(b, 'dashboard: sign-in', provider, email, 'Soak Developer');
    const csrf = formIn(games, 'name="gameId"').fields.csrf;
    if (csrf === undefined) throw new Error(`dashboard: no CSRF token on ${games.url}: ${games.text.slice(0, 300)}`);
    return { browser: b, headers: { Cookie: b.cookieHeader(`${base}/dashboard`), 'X-CSRF-Token': csrf } };
}

/** Registers a game from the dashboard's games page (its form); the game's API key comes from the JSON API. */
export async function registerGame(rec: Recorder, base: string, dev: Developer, gameId: string): Promise<string> {
    const page = await dev.browser.go('dashboard: page', `${base}/dashboard`);
    const registered = await submit(dev.browser, 'dashboard: register game', page, 'name="gameId"', {
        gameId,
        name: `Soak ${gameId}`,
        description: 'played by the soak',
    });
    if (registered.status !== 200)
        throw new Error(`register game: ${registered.status} ${registered.text.slice(0, 300)}`);
    const me = await api(rec, 'dashboard: me', `${base}/dashboard/api/me`, { headers: dev.headers });
    const game = (me?.body?.data?.games ?? []).find((g: { gameId: string }) => g.gameId === gameId);
    if (game === undefined) throw new Error(`register game: ${gameId} is not among the developer's games: ${me?.text}`);
    return game.apiKey as string;
}
