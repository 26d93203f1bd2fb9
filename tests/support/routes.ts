/**
 * Every address the site's functions answer, for the tests that walk them all (the admin guard,
 * the fuzz test, the parity test): the API function's route table, the image upload's function,
 * and the page function's addresses. A route added to the table is covered the day it is added.
 */
import { API_ROUTES, UPLOAD_PATH } from "../../src/server/api/routes.ts";
import { config as pageConfig } from "../../netlify/functions/chapter-page.ts";

/** Every API address (URLPattern pathnames, `:name` one segment). */
export const API_PATTERNS: readonly string[] = [...API_ROUTES.map(([pattern]) => pattern), UPLOAD_PATH];

/** Every address of a page rendered by a function (the chapter pages and the admin's preview). */
export const PAGE_PATTERNS: readonly string[] = [pageConfig.path ?? []].flat();

/** Every address a function answers. */
export const FUNCTION_PATTERNS: readonly string[] = [...API_PATTERNS, ...PAGE_PATTERNS];
