/**
 * The notebook key on this device (issue 32): the unwrapped key as a non-extractable CryptoKey in
 * IndexedDB, under its notebook's id, so the member types the passphrase once per device. A page
 * script can use it, never read it out. Signing out deletes them all (src/stores/auth.ts).
 */

const DATABASE = "notebook-keys";
const STORE = "keys";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB is unavailable."));
  });
}

/** Runs one request in a transaction; resolves once the transaction has completed (a write is then durable: a reload right after keeps it). */
async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
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

/** Keeps `key` (non-extractable) as the key of notebook `id` on this device. */
export async function keepKey(id: string, key: CryptoKey): Promise<void> {
  await run("readwrite", (store) => store.put(key, id));
}

/** The key of notebook `id` kept on this device, or null (none, or storage unavailable). */
export async function keptKey(id: string): Promise<CryptoKey | null> {
  try {
    return ((await run("readonly", (store) => store.get(id))) as CryptoKey | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Forgets every notebook key on this device (signing out). */
export function forgetKeys(): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.deleteDatabase(DATABASE);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}
