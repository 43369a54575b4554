// The gateway's identity: the canister knows the gateway by the principal of its PEM, so the
// principal must be the one every @dfinity tool derives from that key, and its signatures valid.
import { createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Ed25519KeyIdentity } from '@dfinity/identity';

import { ensureIdentity, identityFromPem, loadIdentity } from '../../gateway/ic/identity';
import { tempDir } from '../support/replica';

test('ensureIdentity creates a private PEM once and loads the same identity afterwards', () => {
    const file = path.join(tempDir('identity'), 'gateway-identity.pem');
    const first = ensureIdentity(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(ensureIdentity(file).getPrincipal().toText()).toBe(first.getPrincipal().toText());
    expect(loadIdentity(fs.readFileSync(file, 'utf8')).getPrincipal().toText()).toBe(first.getPrincipal().toText());
});

test('the principal is the one @dfinity/identity derives from the same key', () => {
    const file = path.join(tempDir('identity'), 'gateway-identity.pem');
    ensureIdentity(file);
    const pem = fs.readFileSync(file, 'utf8');
    const secret = (createPrivateKey(pem).export({ format: 'jwk' }) as { d: string }).d;
    const reference = Ed25519KeyIdentity.fromSecretKey(new Uint8Array(Buffer.from(secret, 'base64url')));
    expect(identityFromPem(pem).getPrincipal().toText()).toBe(reference.getPrincipal().toText());
});

test('signatures verify against the public key it announces', async () => {
    const identity = ensureIdentity(path.join(tempDir('identity'), 'gateway-identity.pem'));
    const message = new TextEncoder().encode('request id');
    const signature = await identity.sign(message);
    const key = createPublicKey({ key: Buffer.from(identity.getPublicKey().toDer()), format: 'der', type: 'spki' });
    expect(verify(null, message, key, signature)).toBe(true);
    expect(verify(null, new TextEncoder().encode('another'), key, signature)).toBe(false);
});

test('a key that is not an Ed25519 private key is refused with a clear message', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    expect(() => identityFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString())).toThrow(
        /must be an Ed25519 key/,
    );
});
