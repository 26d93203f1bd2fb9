/**
 * Reading pages of the built site from the server (the 404 page, the chapter shell). Locally the
 * host hands its site folder in; on Netlify the CDN serves them, so they are fetched from the
 * request's own origin.
 */
type Source = (pathname: string) => string | null;

let local: Source | undefined;

/** The local host (and tests) read pages straight from the site they serve. */
export function useSitePages(source: Source): void {
  local = source;
}

export async function sitePage(request: Request, pathname: string): Promise<string | null> {
  if (local) return local(pathname);
  try {
    const response = await fetch(new URL(pathname, request.url), { headers: { accept: "text/html" } });
    return (response.headers.get("content-type") ?? "").startsWith("text/html") ? await response.text() : null;
  } catch {
    return null;
  }
}
