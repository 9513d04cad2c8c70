import type { ReactNode } from "react";

export type Column<Row> = {
  header: ReactNode;
  /** Stable key of the column; needed when the header is not plain text. */
  key?: string;
  cell: (row: Row) => ReactNode;
  align?: "left" | "right";
  /** Extra classes of the column's cells (a monospace reference, say). */
  className?: string;
  /** What the column is called beside its value on a phone; the header when that is text. */
  label?: string;
};

/**
 * The one table of the pages that list rows (payments, audit, titles): an
 * accessible table with a caption, a header row and an empty state; the pages
 * decide what goes in the cells. `rowAttributes` puts data attributes on a
 * row (tests and scripts find rows by them).
 *
 * On a phone (below 640 px) each row is a card: every value under its
 * column's name, nothing cut off and no sideways scrolling. The table keeps
 * its roles (explicit, as a table drawn as blocks may lose them), so screen
 * readers still read rows and cells.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  empty,
  caption,
  minWidth = "min-w-[480px]",
  rowAttributes,
  testId,
  dense = false,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  empty: string;
  caption?: string;
  /** A Tailwind min-width class from 640 px up: the table scrolls inside its box rather than squeezing its columns. */
  minWidth?: string;
  rowAttributes?: (row: Row) => Record<`data-${string}`, string>;
  testId?: string;
  dense?: boolean;
}) {
  if (rows.length === 0)
    return <p className="mt-4 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300">{empty}</p>;
  const pad = dense ? "px-3 py-2" : "px-4 py-3";
  const keyOf = (column: Column<Row>) => column.key ?? String(column.header);
  return (
    <div className="mt-4 rounded-lg border-white/10 sm:overflow-x-auto sm:border">
      <table
        role="table"
        className={`w-full ${minWidth} text-left text-sm max-sm:block max-sm:min-w-0`}
        data-testid={testId}
      >
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead role="rowgroup" className="bg-ink-800 text-slate-300 max-sm:sr-only">
          <tr role="row">
            {columns.map((column) => (
              <th
                key={keyOf(column)}
                role="columnheader"
                scope="col"
                className={`px-4 py-3 ${column.align === "right" ? "text-right" : ""}`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="divide-y divide-white/5 max-sm:block max-sm:space-y-3 max-sm:divide-y-0">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              role="row"
              className="max-sm:block max-sm:rounded-lg max-sm:border max-sm:border-white/10 max-sm:bg-ink-900/60 max-sm:p-3"
              {...rowAttributes?.(row)}
            >
              {columns.map((column) => (
                <td
                  key={keyOf(column)}
                  role="cell"
                  data-label={column.label ?? (typeof column.header === "string" ? column.header : undefined)}
                  className={`${pad} ${column.align === "right" ? "text-right tabular-nums" : ""} ${column.className ?? ""} max-sm:flex max-sm:min-w-0 max-sm:items-baseline max-sm:justify-between max-sm:gap-3 max-sm:px-0 max-sm:py-1 max-sm:text-right max-sm:break-words max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-slate-400 max-sm:before:content-[attr(data-label)]`}
                >
                  {/* One box beside the name on a phone, whatever the cell holds. */}
                  <div className="min-w-0">{column.cell(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
