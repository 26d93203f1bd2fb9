/**
 * Uploading a subsection photo (POST /api/upload, multipart field `photo`) with the SPEC.md
 * section 8 toasts. Answers the photo's URL, or null when the upload failed.
 */
import { apiErrorOf, logMutationError } from "../../lib/api-client.ts";
import { notify } from "../../lib/notify.ts";

export async function uploadPhoto(file: File): Promise<string | null> {
  const body = new FormData();
  body.append("photo", file);
  let response: Response;
  try {
    response = await fetch("/api/upload", { method: "POST", body, credentials: "include" });
  } catch (error) {
    logMutationError(error);
    notify({ title: "Upload Error", description: "Network error occurred while uploading", variant: "destructive" });
    return null;
  }
  if (!response.ok) {
    const error = await apiErrorOf(response);
    logMutationError(error);
    // The server's own message; a bare status text says nothing the fallback does not.
    const said = error.text !== response.statusText ? error.text : "";
    notify({ title: "Upload Failed", description: said || "Failed to upload photo", variant: "destructive" });
    return null;
  }
  try {
    const { photoUrl } = (await response.json()) as { photoUrl?: string };
    if (!photoUrl) throw new Error("The answer holds no photoUrl.");
    notify({ title: "Success", description: "Photo uploaded successfully" });
    return photoUrl;
  } catch (error) {
    logMutationError(error);
    notify({ title: "Upload Failed", description: "Failed to upload photo", variant: "destructive" });
    return null;
  }
}
