// A certified direct-read answer checked as a verifier would, minus the certificate's signature:
// its witnessed tree has the canister's root hash and proves this request and response.
import { createHash } from 'node:crypto';

import { LookupPathStatus, lookup_path, type HashTree as AgentTree } from '@dfinity/agent';
import { decode as cborDecode } from '@dfinity/cbor';

import {
    FULL_EXPRESSION,
    REDIRECT_EXPRESSION,
    certifiedQuery,
    mapHash,
    requestHash,
    responseHeadersHash,
} from '../../../canister/domain/certification/http';
import { keyOf, treeDigest, type HashTree } from '../../../canister/domain/certification/hash-tree';
import type { HttpAnswer } from '../../../canister/service/direct-reads/answers';

export const sha = (...parts: Uint8Array[]): Uint8Array => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return new Uint8Array(h.digest());
};
export const text = (s: string): Uint8Array => new TextEncoder().encode(s);
export const header = (a: HttpAnswer, name: string): string | undefined => {
    const v = a.headers.find(([n]) => n === name)?.[1];
    return v === undefined ? undefined : typeof v === 'string' ? v : new TextDecoder().decode(v);
};

/**
 * The answer's leaf is in the witnessed tree whose root is `root`, its request hashed as its
 * expression (`expression`, else the answer's header) says (a redirect's: with the request's Host).
 */
export function checkCertified(
    root: Uint8Array,
    answer: HttpAnswer,
    url: string,
    host?: string,
    expression = header(answer, 'ic-certificateexpression')!,
): void {
    const cert = header(answer, 'ic-certificate')!;
    const tree = cborDecode(Buffer.from(/tree=:([^:]*):/.exec(cert)![1], 'base64')) as AgentTree;
    const path = cborDecode(Buffer.from(/expr_path=:([^:]*):/.exec(cert)![1], 'base64')) as string[];
    const q = url.indexOf('?');
    const query = certifiedQuery(q < 0 ? '' : url.slice(q + 1));
    // Computed here from the spec's map (method, the certified headers, the certified query), not the canister's helper.
    const entries: Array<[string, string]> = [[':ic-cert-method', 'GET']];
    if (expression === REDIRECT_EXPRESSION && host !== undefined) entries.push(['host', host]);
    if (query !== '') entries.push([':ic-cert-query', query]);
    const request = expression === FULL_EXPRESSION ? requestHash('GET', query) : sha(mapHash(entries), sha());
    const headers = answer.headers.filter((h): h is [string, string] => typeof h[1] === 'string');
    const response = sha(responseHeadersHash(answer.status, headers), sha(answer.body));
    const leaf = [...path, keyOf(sha(text(expression))), keyOf(request), keyOf(response)].map((k) =>
        Uint8Array.from(k, (c) => c.charCodeAt(0)),
    );
    expect(treeDigest(tree as unknown as HashTree)).toEqual(root);
    expect(lookup_path(leaf, tree).status).toBe(LookupPathStatus.Found);
}
