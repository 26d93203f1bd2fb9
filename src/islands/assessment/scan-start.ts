/**
 * The scan as the page opens it (SPEC.md section 4: "On opening, a session is created at once"),
 * before React (issue 20: 4). /assessment runs this from a plain script as soon as it loads: the
 * session is created (sent once), or a scan this tab had is found. The scan island, which wakes on
 * the reader's first touch, takes the very same ScanSync from here (one module, shared), so it
 * neither starts a second session nor misses one under way. A stored scan is resumed by the
 * island at once: the page's HTML shows only the first question.
 */
import { apiRequest } from "../../lib/api-client.ts";
import { notify } from "../../lib/notify.ts";
import { browserStore, readScan, type StoredScan } from "./scan-storage.ts";
import { ScanSync } from "./scan-sync.ts";

export interface OpenedScan {
  scan: ScanSync;
  /** The scan this tab had before a reload, if any: the island resumes it. */
  stored: StoredScan | null;
  /** Settles once the session is created (true), or could not be (false: the reader was told). */
  started: Promise<boolean>;
}

export const failStart = () =>
  notify({ title: "Error", description: "Failed to start assessment. Please try again.", variant: "destructive" });

let opened: OpenedScan | undefined;

/** The page's scan: opened on the first call (creating its session, or finding the stored one). */
export function openScan(): OpenedScan {
  if (opened) return opened;
  const store = browserStore();
  const stored = readScan(store);
  const scan = new ScanSync({ request: apiRequest, store }, stored);
  const started = stored ? Promise.resolve(true) : scan.ensureSession().then((ok) => (ok || failStart(), ok));
  opened = { scan, stored, started };
  return opened;
}
