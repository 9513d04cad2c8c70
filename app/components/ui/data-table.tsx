import type { ReactNode } from "react";

export type Column<Row> = {
  header: ReactNode;
  /** Stable key of the column; needed when the header is not plain text. */
  key?: string;
  cell: (row: Row) => ReactNode;
  align?: "left" | "right";
  /** Extra classes of the column's cells (a monospace reference, say). */
  className?: string;
};

/**
 * The one table of the pages that list rows (payments, audit, titles): an
 * accessible table with a caption, a header row and an empty state; the pages
 * decide what goes in the cells. `rowAttributes` puts data attributes on a
 * row (tests and scripts find rows by them).
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
  /** A Tailwind min-width class: the table scrolls sideways on a phone rather than squeezing its columns. */
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
    <div className="mt-4 overflow-x-auto rounded-lg border border-white/10">
      <table className={`w-full ${minWidth} text-left text-sm`} data-testid={testId}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="bg-ink-800 text-slate-300">
          <tr>
            {columns.map((column) => (
              <th
                key={keyOf(column)}
                scope="col"
                className={`px-4 py-3 ${column.align === "right" ? "text-right" : ""}`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowAttributes?.(row)}>
              {columns.map((column) => (
                <td
                  key={keyOf(column)}
                  className={`${pad} ${column.align === "right" ? "text-right tabular-nums" : ""} ${column.className ?? ""}`}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
