/**
 * The words of members' reading (issue 23), defined once: the server counts by these numbers
 * (src/server/reading/activity.ts), and the admin panel's Readers tab shows these sentences.
 */

/** A chapter page open and visible in a member's browser sends a heartbeat this often. */
export const HEARTBEAT_SECONDS = 30;
/** One heartbeat adds at most this much time: a page left alone, or a sleeping device, adds nothing more. */
export const MAX_HEARTBEAT_SECONDS = 60;
/** Heartbeats closer together than this are not counted (their place is still kept). */
export const HEARTBEAT_THROTTLE_SECONDS = 15;

export const READING_TERMS = {
  opened: "Opened: the member had the chapter's page open and visible at least once.",
  finished:
    "Finished: the member reached the chapter's last subsection (as the chapter was then). A chapter without subsections is finished once opened.",
  timeRead: `Time read: how long the chapter's page was open and visible in the member's browser, counted from the heartbeats it sends every ${HEARTBEAT_SECONDS} seconds. One heartbeat adds at most ${MAX_HEARTBEAT_SECONDS} seconds, so a page left in a background tab or on a sleeping device adds nothing.`,
  where: "Where: the chapter and subsection of the member's last heartbeat, on any device, and that chapter's place in its level.",
} as const;
