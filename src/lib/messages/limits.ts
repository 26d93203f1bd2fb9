/** The direct line's limits the browsers and the server share (issue 43). */

/** The longest message, in characters. */
export const MESSAGE_MAX_CHARS = 10_000;
