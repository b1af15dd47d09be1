/** A column of a list table's header: its label, right-aligned for figures, and extra classes. */
export interface ListColumn {
  label: string;
  align?: "right";
  /** e.g. hidden below a breakpoint. */
  className?: string;
  /** Read by screen readers only (the actions column). */
  visuallyHidden?: boolean;
}

/** The header row of the studio's list tables (files, caches, logs, the audit log): one column header each. */
export function ListTableHead({ columns }: { columns: ListColumn[] }) {
  return (
    <thead>
      <tr className="text-left text-xs text-zinc-600 dark:text-zinc-400">
        {columns.map((column) => (
          <th
            key={column.label}
            scope="col"
            className={[
              column.className,
              "px-2 py-1",
              column.align === "right" && "text-right",
              "font-medium",
            ]
              .filter(Boolean)
              .join(" ")}
          >
            {column.visuallyHidden ? <span className="sr-only">{column.label}</span> : column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
