/**
 * Chromium's own trace of what a page did while `action` ran (devtools.timeline: the style recalcs
 * with the elements they styled, the layouts with the objects they laid out). Counts, not times.
 */
import type { Browser, Page } from "@playwright/test";

/** An event of a Chromium trace. */
export interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { data?: { type?: string }; elementCount?: number; beginData?: { dirtyObjects?: number } };
}

export async function traced(browser: Browser, page: Page, action: () => Promise<unknown>): Promise<TraceEvent[]> {
  await browser.startTracing(page, { categories: ["devtools.timeline"] });
  try {
    await action();
  } catch (error) {
    await browser.stopTracing();
    throw error;
  }
  return (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
}
