/** The part of sortablejs (which ships no types) the admin lists use. */
declare module "sortablejs" {
  export interface SortableEvent {
    item: HTMLElement;
    from: HTMLElement;
    to: HTMLElement;
    oldIndex?: number;
    newIndex?: number;
    oldDraggableIndex?: number;
    newDraggableIndex?: number;
  }
  export interface Options {
    handle?: string;
    draggable?: string;
    animation?: number;
    forceFallback?: boolean;
    fallbackOnBody?: boolean;
    fallbackTolerance?: number;
    touchStartThreshold?: number;
    ghostClass?: string;
    chosenClass?: string;
    dragClass?: string;
    onStart?: (event: SortableEvent) => void;
    onEnd?: (event: SortableEvent) => void;
  }
  export default class Sortable {
    static create(element: HTMLElement, options?: Options): Sortable;
    destroy(): void;
  }
}
