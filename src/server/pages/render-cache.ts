/**
 * Chapter pages as rendered, kept by what they show (issue 20: 7): the chapter, the book's content
 * version it was read at (migration 0011: any write to the book moves it on, in the writing
 * transaction), and the tier of the reader it was rendered for. A request still checks the
 * reader's session and reads the version (one statement, src/server/repositories/chapters.ts);
 * it no longer reads the chapter's text nor renders its Markdown while nothing changed. A save, a
 * restore, a move to another level or a deletion is a new version: the next request renders anew.
 *
 * Each server process (each function instance on Netlify) keeps its own, least recently used out
 * first, within a byte budget; a new built shell (a rebuilt site) empties it. Pages are kept as
 * UTF-8 bytes, ready to send: encoding a 30 KB page was a third of a kept page's cost.
 */

/** What one process keeps at most: about 250 chapter pages of 30 KB. */
export const RENDER_CACHE_BYTES = 8 * 1024 * 1024;

export class RenderCache {
  private readonly entries = new Map<string, Uint8Array<ArrayBuffer>>();
  private bytes = 0;
  private shell: string | null = null;
  private readonly maxBytes: number;

  constructor(maxBytes = RENDER_CACHE_BYTES) {
    this.maxBytes = maxBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The page kept under `key` for this `shell`, if any (the pages of another shell are dropped). */
  get(key: string, shell: string): Uint8Array<ArrayBuffer> | undefined {
    if (shell !== this.shell) {
      this.entries.clear();
      this.bytes = 0;
      this.shell = shell;
      return undefined;
    }
    const page = this.entries.get(key);
    if (page !== undefined) {
      // Most recently used last: the oldest goes first when the budget is spent.
      this.entries.delete(key);
      this.entries.set(key, page);
    }
    return page;
  }

  /** Keeps `page` under `key`, for the shell the last `get` saw; answers its bytes. */
  set(key: string, page: string): Uint8Array<ArrayBuffer> {
    const bytes = encoder.encode(page);
    const old = this.entries.get(key);
    if (old !== undefined) this.bytes -= old.byteLength;
    this.entries.delete(key);
    if (bytes.byteLength > this.maxBytes) return bytes;
    this.entries.set(key, bytes);
    this.bytes += bytes.byteLength;
    for (const [oldest, kept] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= kept.byteLength;
    }
    return bytes;
  }
}

const encoder = new TextEncoder();
