/**
 * Uploading a subsection photo (POST /api/upload, multipart field `photo`) with the SPEC.md
 * section 8 toasts. Answers the photo's URL, or null when the upload failed.
 */
import { errorMessage } from "../../lib/api-client.ts";
import { notify } from "../../lib/notify.ts";
import { logMutationError } from "../../stores/admin-api.ts";

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
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    const error = new Error(`${response.status}: ${text || response.statusText}`);
    logMutationError(error);
    const message = text ? errorMessage(error) : "";
    notify({ title: "Upload Failed", description: message || "Failed to upload photo", variant: "destructive" });
    return null;
  }
  try {
    const { photoUrl } = JSON.parse(text) as { photoUrl?: string };
    if (!photoUrl) throw new Error("The answer holds no photoUrl.");
    notify({ title: "Success", description: "Photo uploaded successfully" });
    return photoUrl;
  } catch (error) {
    logMutationError(error);
    notify({ title: "Upload Failed", description: "Failed to upload photo", variant: "destructive" });
    return null;
  }
}
