/** The notebook's limits the browser and the server share (issue 32). */

/** The longest note, in characters. */
export const NOTE_MAX_CHARS = 20_000;
