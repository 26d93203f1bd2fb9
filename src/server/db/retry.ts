/**
 * Runs a write that may collide with a concurrent one (a deadlock or a serialization failure)
 * once more when it does; a second collision is left to the caller's error handling, which
 * answers 409 (http/respond.ts), never 500.
 */
import { isWriteConflict } from "../http/errors.ts";

export async function retryOnConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isWriteConflict(error)) throw error;
    return work();
  }
}
