import { randomUUID } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolkitError } from '../core/errors.ts';
import { nodeVaultFs, type VaultFs, type VaultIoOptions } from './vault-fs.ts';

/**
 * An owner writes its pid right after creating the lock; an empty lock older than this belongs to a
 * process killed in between.
 */
const EMPTY_LOCK_GRACE_MS = 1000;

/**
 * Runs `fn` while holding `<file>.lock`, so read-modify-write cycles of several processes (or of one
 * process) do not lose each other's pairings. The lock file is created with `wx` and holds
 * `<pid> <time> <nonce>`; a lock whose process is gone (killed mid-save), an empty lock older than
 * a second, or any lock older than `staleLockMs` is removed and retaken. Release removes the lock only if it is still ours.
 * Callers of one process take turns in the process before one of them takes the file: `lockTimeoutMs`
 * bounds both waits together.
 *
 * @throws ToolkitError PCC_VAULT_WRITE when the lock cannot be created or is held past `lockTimeoutMs`
 */
export async function withVaultLock<T>(file: string, fn: () => T | Promise<T>, options: VaultIoOptions = {}): Promise<T> {
  const { lockTimeoutMs = 10_000 } = options;
  const lockFile = `${file}.lock`;
  const deadline = Date.now() + lockTimeoutMs;
  // This process's callers queue here first: only the head of the queue contends for the file.
  const key = resolvePath(lockFile);
  const ahead = inProcess.get(key);
  let leave!: () => void;
  const mine = new Promise<void>((resolve) => (leave = resolve));
  const tail = (ahead ?? Promise.resolve()).then(() => mine);
  inProcess.set(key, tail);
  try {
    if (ahead && !(await within(ahead, deadline - Date.now())))
      throw heldTooLong(file, `another save of this process held it`, lockTimeoutMs, lockFile);
    return await withFileLock(lockFile, deadline, fn, options);
  } finally {
    leave();
    if (inProcess.get(key) === tail) inProcess.delete(key);
  }
}

/**
 * The sections of this process waiting for each lock file, by its absolute path: the last one's end.
 * Every caller of a process polling the lock file itself (each lane of a worker pairing or forgetting
 * a terminal at once) cost an open, a read and a stat every few milliseconds while another held it:
 * against a URL, a second or two of a run's CPU across its workers.
 */
const inProcess = new Map<string, Promise<void>>();

/** True once `p` settled, false when `ms` passed first. */
async function within(p: Promise<void>, ms: number): Promise<boolean> {
  if (ms <= 0) return false;
  const timer = new AbortController();
  const ended = await Promise.race([p.then(() => true), sleep(ms, false, { signal: timer.signal }).catch(() => false)]);
  timer.abort();
  return ended;
}

function heldTooLong(file: string, why: string, lockTimeoutMs: number, lockFile: string): ToolkitError {
  return new ToolkitError(
    'PCC_VAULT_WRITE',
    `the vault ${file} stayed locked for ${lockTimeoutMs} ms (${why})`,
    `if no other payconnect-conformance process is running, delete ${lockFile}`,
  );
}

/**
 * Runs `fn` holding `lockFile` (see {@link withVaultLock}), taken by `deadline`. Taken, `fn` run and
 * released in one go when `fn` is synchronous (as the vault's saves are): the file system's calls are
 * (vault-fs.ts), so no other code of the process runs while it is held. With a call per event-loop
 * turn, a worker whose other tests kept the loop busy held it 50 to 450 ms a save, and the first tests
 * of a URL run waited up to 2 s on each other's pairings.
 */
async function withFileLock<T>(lockFile: string, deadline: number, fn: () => T | Promise<T>, options: VaultIoOptions): Promise<T> {
  const { fs = nodeVaultFs, lockTimeoutMs = 10_000, staleLockMs = 30_000 } = options;
  const file = lockFile.slice(0, -'.lock'.length);
  const token = `${process.pid} ${Date.now()} ${randomUUID()}`;
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, 'wx', 0o600);
      try {
        fs.writeFileSync(fd, token, 'utf8');
      } finally {
        fs.closeSync(fd);
      }
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new ToolkitError(
          'PCC_VAULT_WRITE',
          `the vault lock ${lockFile} could not be created (${code ?? (error as Error).message})`,
          `check that the directory of ${file} is writable`,
          { cause: error },
        );
      }
      if (removeIfStale(lockFile, staleLockMs, fs)) continue;
      if (Date.now() > deadline) throw heldTooLong(file, `${lockFile} exists`, lockTimeoutMs, lockFile);
      await sleep(5 + Math.random() * 25);
    }
  }
  try {
    return await fn();
  } finally {
    if (readOrNot(lockFile, fs) === token) {
      try {
        fs.unlinkSync(lockFile);
      } catch {
        // removed meanwhile (taken for stale): it is not ours to remove any more
      }
    }
  }
}

/** The file's text, or undefined when it cannot be read (gone). */
function readOrNot(path: string, fs: VaultFs): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** True when the lock was abandoned and has been removed (or vanished meanwhile): try again at once. */
function removeIfStale(lockFile: string, staleLockMs: number, fs: VaultFs): boolean {
  let content: string;
  let mtimeMs: number;
  try {
    content = fs.readFileSync(lockFile, 'utf8');
    mtimeMs = fs.statSync(lockFile).mtimeMs;
  } catch {
    return true;
  }
  const pid = Number(content.split(' ')[0]);
  const age = Date.now() - mtimeMs;
  const hasPid = Number.isInteger(pid) && pid > 0;
  const ownerGone = hasPid ? pid !== process.pid && !isAlive(pid) : age >= EMPTY_LOCK_GRACE_MS;
  if (!ownerGone && age < staleLockMs) return false;
  // Narrow the window in which we might remove a lock someone else just took over.
  const again = readOrNot(lockFile, fs);
  if (again !== content) return again === undefined;
  try {
    fs.unlinkSync(lockFile);
  } catch {
    // gone meanwhile: try again all the same
  }
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
