import { describeError } from './api';

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
};

export function cell(text: string, className = ''): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

export type StatusKind = 'idle' | 'loading' | 'done' | 'empty' | 'error';

/** One status line per panel: loading, empty and error states read out by screen readers (role=status). */
export function setStatus(element: HTMLElement, kind: StatusKind, message: unknown, scope = ''): void {
  element.dataset.state = kind;
  element.className = `message ${kind}`;
  element.textContent = kind === 'error' ? describeError(message, scope) : String(message);
}

export interface Panel {
  /** Loads the panel's data for the current filters. */
  show(): void;
  /** Forgets what was shown (on sign-out). */
  reset(): void;
}
