/**
 * Links every content page shares (SPEC.md section 2) and the rail's numbering. It imports only
 * import-free modules on purpose: the Navigator island ships it to the browser, so nothing here
 * may pull in build-only code such as the markup renderer.
 */
import { twoDigits } from "../../lib/chapter-number.ts";

export const FOOTER_LINKS = [
  { href: "/privacy-policy", label: "Privacy Policy" },
  { href: "/terms-of-service", label: "Terms of Service" },
  { href: "/in-person", label: "In Person" },
  { href: "/about", label: "About" },
  { href: "/disclaimer", label: "Disclaimer" },
] as const;

/** Two-digit numbering: the rail counts from 00. */
export const railNumber = twoDigits;
