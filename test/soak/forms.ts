// A browser without a screen for the soak's sign-ins: a cookie jar, redirects followed as a
// browser follows them (a 303 becomes a GET), forms read from the page's HTML and posted with
// their hidden fields and the page's Origin. Enough for the link page, the dashboard's sign-in
// and the built-in provider's sign-up, which are plain HTML forms.
import type { Recorder } from './record';

export interface Page {
    url: string;
    status: number;
    text: string;
}

export interface Form {
    action: string;
    fields: Record<string, string>;
}

interface Cookie {
    name: string;
    value: string;
    path: string;
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', '#39': "'", '#x27': "'", lt: '<', gt: '>' };
const unescape = (s: string): string => s.replace(/&(amp|quot|#39|#x27|lt|gt);/g, (_, e: string) => ENTITIES[e]);

function attributes(tag: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const m of tag.matchAll(/([a-zA-Z][\w-]*)\s*=\s*"([^"]*)"/g)) out[m[1].toLowerCase()] = unescape(m[2]);
    return out;
}

/** The first form of `page` whose HTML contains `marker` (a button's text, a field's name), with its fields. */
export function formIn(page: Page, marker: string): Form {
    for (const m of page.text.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
        if (!m[2].includes(marker)) continue;
        const fields: Record<string, string> = {};
        for (const input of m[2].matchAll(/<input\b([^>]*)>/g)) {
            const a = attributes(input[1]);
            if (a.name !== undefined) fields[a.name] = a.value ?? '';
        }
        return { action: new URL(attributes(m[1]).action ?? page.url, page.url).href, fields };
    }
    throw new Error(`no form with "${marker}" on ${page.url} (${page.status}): ${page.text.slice(0, 300)}`);
}

export interface FormBrowser {
    /** Loads `url` (a GET, or a POST of `form`), following redirects; each hop recorded as `kind`. */
    go(kind: string, url: string, form?: Record<string, string>): Promise<Page>;
    /** The Cookie header this browser sends to `url`. */
    cookieHeader(url: string): string;
}

export function formBrowser(rec: Recorder): FormBrowser {
    const jar = new Map<string, Cookie[]>();
    const cookiesFor = (url: URL): Cookie[] =>
        (jar.get(url.hostname) ?? []).filter(
            (c) => url.pathname === c.path || url.pathname.startsWith(c.path.replace(/\/?$/, '/')),
        );
    const keep = (url: URL, header: string): void => {
        const [pair, ...attrs] = header.split(';').map((p) => p.trim());
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq);
        const value = pair.slice(eq + 1);
        const attr = new Map(attrs.map((a) => [a.split('=')[0].toLowerCase(), a.slice(a.indexOf('=') + 1)]));
        const path = attr.get('path') ?? (url.pathname.replace(/\/[^/]*$/, '') || '/');
        const expires = attr.get('expires');
        const gone =
            attr.get('max-age') === '0' ||
            attr.get('max-age')?.startsWith('-') === true ||
            (expires !== undefined && Date.parse(expires) <= Date.now());
        const list = (jar.get(url.hostname) ?? []).filter((c) => !(c.name === name && c.path === path));
        if (!gone) list.push({ name, value, path });
        jar.set(url.hostname, list);
    };
    const cookieHeader = (url: string): string =>
        cookiesFor(new URL(url))
            .map((c) => `${c.name}=${c.value}`)
            .join('; ');
    return {
        cookieHeader,
        async go(kind, start, form) {
            let url = new URL(start);
            let method = form === undefined ? 'GET' : 'POST';
            let body = form === undefined ? undefined : new URLSearchParams(form).toString();
            let origin: string | undefined = form === undefined ? undefined : url.origin;
            for (let hop = 0; hop < 12; hop++) {
                const started = performance.now();
                const res = await fetch(url, {
                    method,
                    redirect: 'manual',
                    headers: {
                        Accept: 'text/html',
                        ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
                        ...(origin === undefined ? {} : { Origin: origin }),
                        Cookie: cookieHeader(url.href),
                    },
                    body,
                    signal: AbortSignal.timeout(60_000),
                });
                const text = await res.text();
                rec.sample(kind, res.status, performance.now() - started);
                if (res.status >= 500 && !(res.status === 503 && res.headers.has('retry-after')))
                    rec.fail('server', `${kind} ${method} ${url.href} -> ${res.status} ${text.slice(0, 200)}`);
                for (const header of res.headers.getSetCookie()) keep(url, header);
                const location = res.headers.get('location');
                if (res.status < 300 || res.status >= 400 || location === null)
                    return { url: url.href, status: res.status, text };
                url = new URL(location, url);
                if (res.status !== 307 && res.status !== 308) {
                    method = 'GET';
                    body = undefined;
                    origin = undefined;
                }
            }
            throw new Error(`${kind}: more than 12 redirects from ${start}`);
        },
    };
}

/** Posts the form of `page` that contains `marker`, with `values` over its own fields. */
export function submit(
    b: FormBrowser,
    kind: string,
    page: Page,
    marker: string,
    values: Record<string, string> = {},
): Promise<Page> {
    const form = formIn(page, marker);
    return b.go(kind, form.action, { ...form.fields, ...values });
}
