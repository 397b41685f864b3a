import { Table, type TableProps } from "@mantine/core";
import { type CSSProperties, useLayoutEffect, useRef } from "react";
import classes from "./responsive-table.module.css";

/**
 * Each body cell's column header as its `data-label`, so below 600 px a row reads as a card of
 * "header: value" lines. Cells spanning columns (an empty-state row) and columns without a header
 * (actions) get no label.
 */
export function labelCells(table: HTMLTableElement): void {
  const headRow = table.tHead?.rows[table.tHead.rows.length - 1];
  if (!headRow) return;
  const headers: string[] = [];
  for (const th of Array.from(headRow.cells)) {
    const text = (th.getAttribute("aria-label") ?? th.textContent ?? "").trim();
    for (let i = 0; i < th.colSpan; i++) headers.push(text);
  }
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        const label = cell.colSpan === 1 ? headers[column] : "";
        if (label) cell.setAttribute("data-label", label);
        else cell.removeAttribute("data-label");
        column += cell.colSpan;
      }
    }
  }
}

/**
 * The panel's table: a normal table from 600 px (scrolling sideways inside its card when it needs
 * `minWidth`), and below 600 px a list of cards, one per row, with every column and action in it,
 * so nothing is cut off on a phone.
 */
export function ResponsiveTable({
  minWidth,
  children,
  className,
  ...props
}: TableProps & { minWidth?: number }) {
  const ref = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const table = ref.current;
    if (!table) return;
    labelCells(table);
    // Rows that render on their own later (paging, a row's own state) get their labels too.
    const observer = new MutationObserver(() => labelCells(table));
    observer.observe(table, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  const style = minWidth ? ({ "--rt-min-width": `${minWidth}px` } as CSSProperties) : undefined;
  return (
    <div className={classes.wrap} style={style}>
      <Table ref={ref} className={[classes.table, className].filter(Boolean).join(" ")} {...props}>
        {children}
      </Table>
    </div>
  );
}
