/**
 * The local server's certificates, made as envtest makes them: one self-signed CA per process and,
 * signed by it, a serving certificate for the loopback names (127.0.0.1, ::1, localhost) plus the
 * host the server binds. Keys are ECDSA P-256, made by WebCrypto, so a CA and a certificate take a few
 * milliseconds. Invariant: a process makes its CA once and one serving certificate per extra host
 * (each cached as one promise), so every start after the first reuses them and costs no key work.
 * The loopback-only material is also kept in a per-user disk cache (`material-cache.ts`), so a
 * process that finds it there loads no X.509 code at all; the material then carries that earlier
 * process's CA, which is fine, since every kubeconfig names the CA of its own server.
 *
 * X.509 is built by @peculiar/x509 rather than by hand: DER encoding of names, extensions and
 * signatures is exacting, and a library that is tested against real verifiers is cheaper to trust
 * than our own ASN.1. It needs `reflect-metadata` as a global polyfill, so both are imported lazily,
 * here and only here: importing Converge has no global side effect until a TLS server starts.
 */
import { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import { readCachedMaterial, writeCachedMaterial } from './material-cache.js';

type CryptoKeyPair = webcrypto.CryptoKeyPair;
const { subtle } = webcrypto;

/** PEM material for `node:https` (server side) and for a kubeconfig (the CA). @extension */
export interface ServingMaterial {
  /** The CA certificate that signs `cert`: what clients verify against. */
  caPem: string;
  cert: string;
  key: string;
}

interface CertificateAuthority {
  pem: string;
  name: string;
  keys: CryptoKeyPair;
}

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];
const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
/** Long enough for any test run or dev session; cached loopback material is remade a day before it expires. */
const VALID_DAYS = 365;

let library: Promise<typeof import('@peculiar/x509')> | undefined;
let authority: Promise<CertificateAuthority> | undefined;
const serving = new Map<string, Promise<ServingMaterial>>();

function x509(): Promise<typeof import('@peculiar/x509')> {
  return (library ??= import('reflect-metadata').then(() => import('@peculiar/x509')));
}

/** Only the serving key is ever exported (to PEM, for `node:https`); the CA's private key never leaves WebCrypto. */
const generateKeys = (exportable: boolean): Promise<CryptoKeyPair> =>
  subtle.generateKey(KEY_ALGORITHM, exportable, ['sign', 'verify']) as Promise<CryptoKeyPair>;

function validity(): { notBefore: Date; notAfter: Date } {
  // Back-dated a minute so a client whose clock is slightly behind still accepts it.
  const notBefore = new Date(Date.now() - 60_000);
  return { notBefore, notAfter: new Date(notBefore.getTime() + VALID_DAYS * 86_400_000) };
}

async function createAuthority(): Promise<CertificateAuthority> {
  const lib = await x509();
  const keys = await generateKeys(false);
  const name = 'CN=converge-local-ca,O=converge';
  const cert = await lib.X509CertificateGenerator.createSelfSigned({
    name,
    keys,
    signingAlgorithm: SIGNING_ALGORITHM,
    ...validity(),
    extensions: [
      new lib.BasicConstraintsExtension(true, 0, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.cRLSign | lib.KeyUsageFlags.digitalSignature, true),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { pem: cert.toString('pem'), name, keys };
}

async function createServing(hosts: readonly string[]): Promise<ServingMaterial> {
  const lib = await x509();
  const ca = await (authority ??= createAuthority().catch((err: unknown) => {
    authority = undefined;
    throw err;
  }));
  const keys = await generateKeys(true);
  const names = hosts.map((h) => ({ type: isIP(h) ? ('ip' as const) : ('dns' as const), value: h }));
  const cert = await lib.X509CertificateGenerator.create({
    subject: 'CN=converge-apiserver,O=converge',
    issuer: ca.name,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: SIGNING_ALGORITHM,
    ...validity(),
    extensions: [
      new lib.BasicConstraintsExtension(false, undefined, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature | lib.KeyUsageFlags.keyEncipherment, true),
      new lib.ExtendedKeyUsageExtension([lib.ExtendedKeyUsage.serverAuth]),
      new lib.SubjectAlternativeNameExtension(names),
      await lib.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey));
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END PRIVATE KEY-----\n`;
  // The chain a client needs beyond its trusted CA is empty: the CA signs the leaf directly.
  return { caPem: ca.pem, cert: cert.toString('pem'), key };
}

/**
 * CA and serving certificate for a server bound to `host`. The loopback names are always in the
 * certificate; `host` is added when it is another name or address (a wildcard bind such as
 * `0.0.0.0` is not a name a client dials, so it adds nothing).
 * @extension
 */
export function servingMaterial(host: string): Promise<ServingMaterial> {
  const extra = LOOPBACK.includes(host) || host === '0.0.0.0' || host === '::' ? '' : host;
  let m = serving.get(extra);
  if (!m) {
    m = extra ? createServing([...LOOPBACK, extra]) : loopbackMaterial();
    // A failed attempt is not cached: the next start tries again.
    m.catch(() => serving.delete(extra));
    serving.set(extra, m);
  }
  return m;
}

/** The loopback material: from the disk cache when it holds sound material, else made and stored there. */
async function loopbackMaterial(): Promise<ServingMaterial> {
  const cached = readCachedMaterial();
  if (cached) return cached;
  const made = await createServing(LOOPBACK);
  writeCachedMaterial(made);
  return made;
}
