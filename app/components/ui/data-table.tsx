import type { ReactNode } from "react";

export type Column<Row> = { header: string; cell: (row: Row) => ReactNode; align?: "left" | "right" };

/** A plain, accessible table with an empty state; the pages decide what goes in the cells. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  empty,
  caption,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  empty: string;
  caption?: string;
}) {
  if (rows.length === 0)
    return <p className="mt-6 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300">{empty}</p>;
  return (
    <div className="mt-6 overflow-x-auto rounded-lg border border-white/10">
      <table className="w-full min-w-[480px] text-left text-sm">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="bg-ink-800 text-slate-300">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
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
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`px-4 py-3 ${column.align === "right" ? "text-right tabular-nums" : ""}`}
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
