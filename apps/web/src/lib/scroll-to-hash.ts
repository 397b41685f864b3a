import { type CSSProperties, useEffect } from "react";
import { useLocation } from "react-router";

/** An element a link's `#id` lands on: it stops below the shell's fixed header, not under it. */
export const HASH_TARGET: CSSProperties = { scrollMarginTop: 80 };

/**
 * Scrolls to the element named by the address's `#id` once the page has drawn it (`ready`): the
 * router changes pages without the browser's own jump to an anchor.
 */
export function useScrollToHash(ready: boolean): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || hash.length < 2) return;
    const frame = requestAnimationFrame(() =>
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: "start" }),
    );
    return () => cancelAnimationFrame(frame);
  }, [hash, ready]);
}
