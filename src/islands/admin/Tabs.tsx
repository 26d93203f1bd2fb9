/**
 * Tabs as the ARIA pattern has them: a tablist of tabs, one selected, each controlling its panel.
 * Arrow keys move between tabs and select them (Home and End jump to the ends); only the selected
 * tab is in the Tab order.
 */
import { useRef, type KeyboardEvent, type ReactNode } from "react";

export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
}

interface TabsProps<T extends string> {
  /** The tablist's accessible name. */
  label: string;
  /** Prefix of the tab and panel element ids (unique on the page). */
  idPrefix: string;
  items: TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  size?: "large" | "small";
}

export const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`;
export const panelId = (prefix: string, id: string) => `${prefix}-panel-${id}`;

export function Tabs<T extends string>({ label, idPrefix, items, selected, onSelect, size = "large" }: TabsProps<T>) {
  const list = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent) => {
    const index = items.findIndex((item) => item.id === selected);
    const last = items.length - 1;
    const next =
      event.key === "ArrowRight" ? (index === last ? 0 : index + 1)
      : event.key === "ArrowLeft" ? (index === 0 ? last : index - 1)
      : event.key === "Home" ? 0
      : event.key === "End" ? last
      : null;
    if (next === null) return;
    event.preventDefault();
    const item = items[next]!;
    onSelect(item.id);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(idPrefix, item.id))}`)?.focus();
  };

  // On a phone the tabs share the row equally and a long label wraps inside its tab; from 640 px
  // each tab is as wide as its label.
  const base =
    size === "large"
      ? // Each label on one line; on a phone the tabs wrap into rows rather than squeeze (issue 34: 12).
        "flex-none whitespace-nowrap border-b-2 px-3 py-2.5 text-center text-sm leading-snug font-medium sm:px-4 sm:text-base"
      : "min-w-0 flex-1 whitespace-nowrap rounded-md px-1 py-1.5 text-center text-[0.8125rem] leading-snug font-medium sm:flex-none sm:px-3 sm:text-sm";
  return (
    <div
      ref={list}
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className={size === "large" ? "flex flex-wrap gap-x-1 border-b border-[var(--color-line)]" : "flex w-full gap-1 rounded-lg bg-[var(--color-line)]/40 p-1 sm:w-auto"}
    >
      {items.map((item) => {
        const active = item.id === selected;
        const look =
          size === "large"
            ? active
              ? "border-[var(--color-accent)] text-[var(--color-ink)]"
              : "border-transparent text-[var(--color-muted)] hover:text-[var(--color-ink)]"
            : active
              ? "bg-[var(--color-panel)] text-[var(--color-ink)] shadow-sm"
              : "text-[var(--color-muted)] hover:text-[var(--color-ink)]";
        return (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={tabId(idPrefix, item.id)}
            aria-selected={active}
            aria-controls={active ? panelId(idPrefix, item.id) : undefined}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(item.id)}
            className={`${base} ${look}`}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

/** The selected tab's panel (only the selected panel is rendered). */
export function TabPanel({ idPrefix, id, children }: { idPrefix: string; id: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={panelId(idPrefix, id)} aria-labelledby={tabId(idPrefix, id)} tabIndex={0} className="pt-5 outline-none focus-visible:ring-2 focus-visible:ring-[var(--color-accent)]">
      {children}
    </div>
  );
}
