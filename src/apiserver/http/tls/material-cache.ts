/**
 * A per-user disk cache of the loopback serving material (CA certificate, serving certificate and its
 * key), so that a process whose first act is to start a server (every test file under `node --test`)
 * reuses what an earlier process made instead of loading the X.509 library and making keys again,
 * which costs a few hundred milliseconds. Only loopback material is cached: a certificate that names
 * 127.0.0.1, ::1 and localhost, for servers no other machine can reach. The CA's private key is never
 * written anywhere, so the file cannot be used to sign anything else.
 *
 * Invariant: material is reused only when it is provably ours and sound: the folder and file belong to
 * this user and nobody else can read or write them, the certificate chains to the CA, matches the key,
 * names the loopback addresses and is valid for at least another day. Anything else is a miss, never
 * an error, and the caller makes fresh material. Writes are atomic (temporary file, then rename), so
 * concurrent processes never see half a file.
 */
import { X509Certificate, createPrivateKey, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface LoopbackMaterial {
  caPem: string;
  cert: string;
  key: string;
}

const MIN_REMAINING_MS = 86_400_000;

/** The cache folder: one per user, in the system's temporary folder. */
export function materialCacheDir(): string {
  return join(tmpdir(), `kube-converge-${userInfo().uid}`);
}

const cacheFile = (dir: string): string => join(dir, 'loopback-tls-v1.json');

/** True when `path` is a real folder or file (no link) of this user that nobody else may read or write. */
function privateToUs(path: string, kind: 'dir' | 'file'): boolean {
  const s = lstatSync(path, { throwIfNoEntry: false });
  if (!s || s.isSymbolicLink() || (kind === 'dir' ? !s.isDirectory() : !s.isFile())) return false;
  const uid = process.getuid?.();
  return (uid === undefined || s.uid === uid) && (s.mode & 0o077) === 0;
}

function sound(m: LoopbackMaterial, nowMs: number): boolean {
  const ca = new X509Certificate(m.caPem);
  const cert = new X509Certificate(m.cert);
  return (
    cert.verify(ca.publicKey) &&
    cert.checkPrivateKey(createPrivateKey(m.key)) &&
    cert.checkIP('127.0.0.1') !== undefined &&
    cert.checkIP('::1') !== undefined &&
    cert.checkHost('localhost') !== undefined &&
    Date.parse(cert.validTo) - nowMs > MIN_REMAINING_MS &&
    Date.parse(ca.validTo) - nowMs > MIN_REMAINING_MS
  );
}

/** The cached material, or undefined when there is none we may trust. */
export function readCachedMaterial(dir: string = materialCacheDir(), nowMs: number = Date.now()): LoopbackMaterial | undefined {
  const file = cacheFile(dir);
  if (!privateToUs(dir, 'dir') || !privateToUs(file, 'file')) return undefined;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Partial<LoopbackMaterial>;
    if (typeof m.caPem !== 'string' || typeof m.cert !== 'string' || typeof m.key !== 'string') return undefined;
    const material = { caPem: m.caPem, cert: m.cert, key: m.key };
    return sound(material, nowMs) ? material : undefined;
  } catch {
    // A torn, foreign or corrupt file is a miss: the caller makes fresh material and overwrites it.
    return undefined;
  }
}

/**
 * Stores `m` for later processes. Failing to store (a read-only or foreign temporary folder) is not
 * the server's failure: it only means the next process makes its own material, so it is reported to
 * the caller as `false` rather than thrown.
 */
export function writeCachedMaterial(m: LoopbackMaterial, dir: string = materialCacheDir()): boolean {
  const tmp = join(dir, `.loopback-tls-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateToUs(dir, 'dir')) return false;
    writeFileSync(tmp, JSON.stringify(m), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, cacheFile(dir));
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}
