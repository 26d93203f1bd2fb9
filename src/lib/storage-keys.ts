/**
 * Every key this site keeps in browser storage (SPEC.md sections 3 and 9, and our own), in one
 * place: the stores and the page script (src/scripts/page.ts) read and write the same entries.
 * Constants only (see src/lib/page-signals.ts).
 */

/**
 * Cookie: "1" while a reader session cookie is set, with the same lifetime; set and cleared by the
 * server together with that (HttpOnly) cookie, and readable by the page script, so a browser
 * without it never asks the server about a session (issue 20). `__Host-` prefixed over HTTPS.
 * It proves nothing: the server decides access from the session cookie alone.
 */
export const SIGNED_IN_COOKIE = "sb_signed_in";
/**
 * Cookie: why this browser's reader session ended, when the reader should be told (issue 22: 8):
 * "replaced" (their code signed in on another device, beyond its cap). Set for a few minutes by
 * the server's session answer that clears the session; /resume says so once and clears it.
 * `__Host-` prefixed over HTTPS.
 */
export const SESSION_ENDED_COOKIE = "sb_session_ended";
/** localStorage: the auth state, `{ isAuthenticated, accessLevel }` (it only drives the UI). */
export const AUTH_KEY = "systemAuth";
/** localStorage: the selected level (Operator, Architect or Mastermind). */
export const SELECTED_LEVEL_KEY = "selectedLevel";
/** localStorage: "light" or "dark". */
export const THEME_KEY = "book-theme";
/**
 * localStorage: "1" once a page in this browser has set its text in the book's face (whose file
 * the browser then keeps): its pages then do from their first paint, where a first visit paints
 * in the fallback and asks for the face after (src/layouts/early-script.ts, src/scripts/page.ts;
 * issue 33: 2).
 */
export const FACE_KEY = "book-face";
/** localStorage: per level, the last chapter read and the subsection being read. */
export const READER_PLACE_KEY = "reader-place";
/** sessionStorage: the chapter list, `{ at, chapters }`, fresh for CHAPTER_LIST_TTL_MS. */
export const CHAPTER_LIST_KEY = "chapterList";
export const CHAPTER_LIST_TTL_MS = 15 * 60 * 1000;
/**
 * localStorage: an anonymous reader's notes (issue 32), by chapter slug then subsection id: plain
 * text, written only while nobody is signed in; they belong to this browser and move into the
 * notebook of the member who signs in here, once it is open. A signed-in member's words are never
 * written here (issue 42: 2). The page script wakes the Notebook island on a chapter named here
 * (`"slug":` appears in it).
 */
export const NOTEBOOK_LOCAL_KEY = "notebook-local";
/**
 * localStorage: a member's saves the server has not confirmed yet (issue 42: 2), sealed under
 * their notebook key: `{ notebook, chapters: { slug: { subsectionId: { version, sealed, at } } } }`.
 * Sent when the connection returns, also after a reload; gone with the session.
 */
export const NOTEBOOK_PENDING_KEY = "notebook-pending";
/**
 * localStorage: the highest version of each note this device has seen, `{ notebook, notes: {
 * subsectionId: version } }`, so an older one served again is refused (issue 42: 5). Gone with
 * the session.
 */
export const NOTEBOOK_SEEN_KEY = "notebook-seen";
/**
 * localStorage: slow one-way digests (PBKDF2) of the access code's login and password, taken at
 * sign-in, so a notebook passphrase can be refused for being one of them (the operator knows
 * both; issue 42: 7). Gone with the session.
 */
export const NOTEBOOK_REFUSED_KEY = "notebook-refused";
/** IndexedDB: the database holding the operator's messaging key opened on this device (issue 43; gone when the admin signs out). */
export const OPERATOR_KEYS_DATABASE = "operator-keys";
/** IndexedDB: the database holding the notebook key opened on this device (src/lib/notebook/device-keys.ts). */
export const NOTEBOOK_KEYS_DATABASE = "notebook-keys";
/** sessionStorage: a notice left for the next page (src/lib/notify.ts). */
export const PENDING_NOTICE_KEY = "pendingNotice";
