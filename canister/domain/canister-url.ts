// Where another canister's direct reads are, in the form the request came in with: the one place
// a redirect's Location is built. Only the canister id (one the canister knows) and the recognised
// host patterns go into it, never any other text of the request's Host: no open redirect.

/** A canister's direct-read address: `origin` + path, and `canisterId` in the query for the local `?canisterId=` form. */
export interface CanisterAddress {
    /** Scheme and host (and port), no trailing slash. */
    origin: string;
    /** The local replica's form: the canister is named by `?canisterId=<id>`, not by the host. */
    byQuery?: string;
}

/** IC domains that name a canister by its first label (`<id>.icp0.io`, `<id>.raw.icp0.io`). */
const IC_DOMAINS = ['icp0.io', 'ic0.app'] as const;

/** Hosts of a local replica that name the canister by `?canisterId=` (the request's port is kept). */
const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '[::1]'] as const;

const PORT = /^[0-9]{1,5}$/;
/** Dot-separated labels of letters, digits and hyphens. */
const HOST_NAME = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/** The host and port of a Host header (lowercase), or undefined when it is not `<name>[:<port>]`. */
function split(host: string): { name: string; port?: string } | undefined {
    const h = host.trim().toLowerCase();
    const bracket = h.startsWith('[') ? h.indexOf(']') : -1;
    const colon = bracket >= 0 ? (h[bracket + 1] === ':' ? bracket + 1 : -1) : h.lastIndexOf(':');
    const name = colon < 0 ? h : h.slice(0, colon);
    const port = colon < 0 ? undefined : h.slice(colon + 1);
    if (port !== undefined && (!PORT.test(port) || Number(port) > 65535)) return undefined;
    if (!HOST_NAME.test(name) && name !== '[::1]') return undefined;
    return { name, port };
}

/**
 * The address of canister `canisterId` for a request that came with this Host header:
 * - `<x>.icp0.io` / `<x>.ic0.app` -> `https://<id>.icp0.io` (the same domain), `.raw.` kept;
 * - `<x>.localhost:<port>` -> `http://<id>.localhost:<port>`, `.raw.` kept;
 * - `127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>` (the local replica's
 *   `?canisterId=` form) -> the same host, with `canisterId=<id>` in the query;
 * - anything else (a custom domain, no Host) -> `https://<id>.icp0.io` (`.raw.` when `raw`).
 * `canisterId` must be a principal text (the caller's own knowledge, never the request's).
 */
export function canisterAddress(host: string | undefined, canisterId: string, raw: boolean): CanisterAddress {
    const parts = host === undefined ? undefined : split(host);
    const rawLabel = raw ? '.raw' : '';
    if (parts !== undefined) {
        const labels = parts.name.split('.');
        for (const domain of IC_DOMAINS)
            if (parts.name.endsWith(`.${domain}`) && labels.length >= 3 && parts.port === undefined)
                return { origin: `https://${canisterId}${rawLabel}.${domain}` };
        if (parts.name.endsWith('.localhost') && labels.length >= 2 && parts.port !== undefined)
            return { origin: `http://${canisterId}${rawLabel}.localhost:${parts.port}` };
        if ((LOCAL_HOSTS as readonly string[]).includes(parts.name) && parts.port !== undefined)
            return { origin: `http://${parts.name}:${parts.port}`, byQuery: canisterId };
    }
    return { origin: `https://${canisterId}${rawLabel}.icp0.io` };
}

/** Characters a query keeps as they are (RFC 3986 query characters); any other is %-encoded. */
const QUERY_CHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/;

/** %-encoded UTF-8 of a string (a lone surrogate as U+FFFD). */
function encode(text: string): string {
    try {
        return encodeURIComponent(text);
    } catch {
        return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
    }
}

/**
 * A request's query as a Location carries it: `canisterId` pairs dropped (the address names the
 * canister), any character a URL's query may not hold %-encoded (no space, quote or line break).
 */
export function carriedQuery(query: string): string {
    return query
        .split('&')
        .filter((pair) => pair !== '' && pair.split('=')[0].toLowerCase() !== 'canisterid')
        .map((pair) => [...pair].map((ch) => (QUERY_CHAR.test(ch) ? ch : encode(ch))).join(''))
        .join('&');
}

/**
 * The URL of `path` (decoded segments; a last empty one is a trailing `/`) with `query` (already
 * carried as carriedQuery gives it, may be '') at an address. Every segment is %-encoded, so no segment
 * can add a `/`, `?`, `#` or `@` of its own: the URL stays on the address's origin.
 */
export function urlAt(address: CanisterAddress, segments: readonly string[], query: string): string {
    const path = `/${segments.map(encode).join('/')}`;
    const pairs = [...(address.byQuery === undefined ? [] : [`canisterId=${address.byQuery}`])];
    if (query !== '') pairs.push(query);
    return `${address.origin}${path}${pairs.length === 0 ? '' : '?'}${pairs.join('&')}`;
}
