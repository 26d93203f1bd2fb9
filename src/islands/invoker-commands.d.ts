/**
 * Invoker commands (HTML's `commandfor` and `command` on a button: it opens or closes a dialog with
 * no script), which React passes through as written but whose types it does not know yet.
 */
import "react";

declare module "react" {
  // (The same type parameter as React's own declaration, which this one adds to.)
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: "show-modal" | "close" | "request-close";
  }
}
