// Signs state-tree root hashes with the replica's BLS key and encodes certificates the way the
// IC sends them (self-described CBOR `{tree, signature}`; no delegation, the key is the root key).
import { Cbor, domain_sep } from '@dfinity/agent';
import type { HashTree } from '@dfinity/agent';
import { blsSign } from './bls';
import { rootDigest, witness, type LabeledTree, type Path } from './hash-tree';
import { concatBytes, toHex } from '../bytes';

export interface CertifiedRoot {
    rootHash: Uint8Array;
    signature: Uint8Array;
}

const STATE_ROOT_DOMAIN = domain_sep('ic-state-root');

/** Polls between state changes certify the same root again; signing once is enough. */
let lastSigned: { keyHex: string; rootHex: string; signature: Uint8Array } | undefined;

/** Signs domain_sep('ic-state-root') · root hash of the tree as it is now. */
export function certify(tree: LabeledTree, secretKey: Uint8Array): CertifiedRoot {
    const rootHash = rootDigest(tree);
    const rootHex = toHex(rootHash);
    const keyHex = toHex(secretKey);
    if (lastSigned && lastSigned.keyHex === keyHex && lastSigned.rootHex === rootHex) {
        return { rootHash, signature: lastSigned.signature.slice() }; // a copy: callers may mutate theirs
    }
    const signature = blsSign(secretKey, concatBytes([STATE_ROOT_DOMAIN, rootHash]));
    lastSigned = { keyHex, rootHex, signature: signature.slice() };
    return { rootHash, signature };
}

/** CBOR bytes of a certificate, with the self-describe tag the IC puts on them. */
export function encodeCertificate(tree: HashTree, signature: Uint8Array): Uint8Array {
    return Cbor.encode({ tree, signature });
}

/**
 * The certificate answering a read_state (or a canister's data-certificate request): a witness
 * for `paths` plus `/time`, which every certificate reveals, signed with `secretKey`.
 */
export function certifyPaths(tree: LabeledTree, secretKey: Uint8Array, paths: readonly Path[]): Uint8Array {
    const revealed = witness(tree, [['time'], ...paths]);
    const { signature } = certify(tree, secretKey);
    return encodeCertificate(revealed, signature);
}
