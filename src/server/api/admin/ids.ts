import { badRequest } from "../../http/errors.ts";

/** A path's id as a positive 32-bit whole number; 400 naming the field otherwise. */
export function parseId(value: string, field = "id"): number {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2 ** 31 - 1) {
    throw badRequest(`${field} must be a positive whole number, not "${value.slice(0, 40)}".`);
  }
  return Number(value);
}
