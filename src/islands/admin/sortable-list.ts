/**
 * Reordering a list by drag (sortablejs) and by keyboard (Alt+ArrowUp / Alt+ArrowDown on a
 * focused item). React owns the list: after a drag, the moved node is put back where it was and
 * the caller re-renders the list in its new order.
 */
import Sortable from "sortablejs";
import { useCallback, useEffect, useRef, type KeyboardEvent } from "react";

export const SORTABLE_ITEM = "data-sortable-item";

interface Options {
  /** Selector of the drag handle inside each item. */
  handle: string;
  /** Pixels the pointer must travel before a drag starts. */
  tolerance: number;
  onMove: (from: number, to: number) => void;
}

/**
 * Attach the answered callback ref to the list element (its only children are the items). The
 * sortable is made in the ref itself, not from state set there: a long list is not rendered twice.
 */
export function useSortableList({ handle, tolerance, onMove }: Options): (element: HTMLElement | null) => (() => void) | undefined {
  const moveRef = useRef(onMove);
  useEffect(() => {
    moveRef.current = onMove;
  });

  return useCallback(
    (element: HTMLElement | null) => {
      if (!element) return undefined;
      const sortable = Sortable.create(element, {
        handle,
        draggable: `[${SORTABLE_ITEM}]`,
        animation: 150,
        // Pointer events instead of native drag and drop: the same on touch, mouse and pen, and the
        // tolerance below applies to all of them.
        forceFallback: true,
        fallbackOnBody: true,
        fallbackTolerance: tolerance,
        touchStartThreshold: tolerance,
        ghostClass: "sortable-ghost",
        onEnd: ({ item, from, oldDraggableIndex: oldIndex, newDraggableIndex: newIndex }) => {
          if (oldIndex === undefined || newIndex === undefined || oldIndex === newIndex) return;
          from.removeChild(item);
          from.insertBefore(item, from.children[oldIndex] ?? null);
          moveRef.current(oldIndex, newIndex);
        },
      });
      return () => sortable.destroy();
    },
    [handle, tolerance],
  );
}

/** The new index for Alt+ArrowUp / Alt+ArrowDown pressed on the item itself, or null. */
export function keyboardTarget(event: KeyboardEvent, index: number, total: number): number | null {
  if (event.target !== event.currentTarget || !event.altKey) return null;
  if (event.key === "ArrowUp" && index > 0) return index - 1;
  if (event.key === "ArrowDown" && index < total - 1) return index + 1;
  return null;
}

/** `list` with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}

/** Focuses the item with this id once the list has re-rendered. */
export function focusItemLater(kind: string, id: number): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-${kind}-id="${id}"]`)?.focus());
}
