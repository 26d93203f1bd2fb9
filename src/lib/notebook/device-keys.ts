/**
 * The notebook on this device (issues 32 and 42): the unwrapped notebook key as a non-extractable
 * CryptoKey in IndexedDB, under its notebook's id, so the member types the passphrase once per
 * device. A page script can use it, never read it out. One notebook's key at a time: keeping one
 * drops any other, and a notebook this device no longer belongs to (erased, started again) loses
 * its key as soon as a page learns of it.
 *
 * Everything this browser keeps for the member signed in (the key, their sealed saves not yet
 * sent, the versions seen, the digests that refuse the code's password as a passphrase) goes when
 * their session ends, however it ends: `forgetThisDevice`. The page script learns of an ended
 * session first and clears the same list itself (src/scripts/page.ts `forgetMember`).
 */
import { NOTEBOOK_KEYS_DATABASE, NOTEBOOK_PENDING_KEY, NOTEBOOK_REFUSED_KEY, NOTEBOOK_SEEN_KEY } from "../storage-keys.ts";

const STORE = "keys";

/** The localStorage entries that belong to the member signed in (beside the key database). */
export const MEMBER_STORAGE_KEYS = [NOTEBOOK_PENDING_KEY, NOTEBOOK_SEEN_KEY, NOTEBOOK_REFUSED_KEY] as const;

function open(database: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(database, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB is unavailable."));
  });
}

/**
 * Runs `work` in one transaction of `database`'s key store; resolves once it has completed (a
 * write is then durable: a reload right after keeps it). The notebook's keys by default; the
 * operator's messaging key has a database of its own (src/lib/messages/operator-line.ts).
 */
export async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>, database = NOTEBOOK_KEYS_DATABASE): Promise<T> {
  const db = await open(database);
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error ?? request.error ?? new Error("IndexedDB failed."));
    });
  } finally {
    db.close();
  }
}

/** Keeps `key` (non-extractable) as the key of notebook `id` on this device, in place of any other. */
export async function keepKey(id: string, key: CryptoKey): Promise<void> {
  await run("readwrite", (store) => {
    store.clear();
    return store.put(key, id);
  });
}

/** The key of notebook `id` kept on this device, or null (none, or storage unavailable). */
export async function keptKey(id: string): Promise<CryptoKey | null> {
  try {
    return ((await run("readonly", (store) => store.get(id))) as CryptoKey | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Forgets every notebook key kept on this device but `keep`'s (all, without it). */
export async function forgetOtherKeys(keep?: string): Promise<void> {
  try {
    const ids = (await run("readonly", (store) => store.getAllKeys())) as string[];
    const others = ids.filter((id) => id !== keep);
    if (others.length > 0) await run("readwrite", (store) => others.map((id) => store.delete(id)).at(-1)!);
  } catch {
    // storage unavailable: nothing is kept
  }
}

/** Forgets every notebook key on this device (or every key of `database`). */
export function forgetKeys(database = NOTEBOOK_KEYS_DATABASE): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.deleteDatabase(database);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}

/** The session ended: everything this browser kept for its member goes (the key and MEMBER_STORAGE_KEYS). */
export async function forgetThisDevice(): Promise<void> {
  for (const key of MEMBER_STORAGE_KEYS) {
    try {
      localStorage.removeItem(key);
    } catch {
      // storage unavailable: nothing was kept
    }
  }
  await forgetKeys();
}
