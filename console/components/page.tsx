import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** The first page of a visit leaves the focus where the browser put it (the top, then the skip link). */
let opened = false;

/**
 * A page of the console: its title in the tab and as the one h1, which takes
 * the focus when the reader moves to it so a screen reader announces where it landed.
 */
export function Page({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Quire console`;
    if (opened) heading.current?.focus();
    opened = true;
  }, [title]);
  return (
    <>
      <div class="page-head">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </>
  );
}
