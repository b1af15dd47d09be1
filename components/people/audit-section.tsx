"use client";

import { Button } from "@/components/ui/button";
import { type ListColumn, ListTableHead } from "@/components/ui/list-table-head";
import { useAuditLog } from "@/lib/hooks/use-request-logs";

/** The audit log on the Admin page: admin actions and key changes, newest first. */
const AUDIT_COLUMNS: ListColumn[] = [
  { label: "When" },
  { label: "Who" },
  { label: "What" },
  { label: "To what" },
  { label: "Details" },
];

export function AuditSection() {
  const audit = useAuditLog(true);
  const events = audit.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <section aria-labelledby="audit-title" className="flex flex-col gap-2">
      <h2 id="audit-title" className="text-sm font-semibold">
        Audit log
      </h2>
      {audit.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {audit.error.message}
        </p>
      )}
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm" aria-label="Audit log">
          <ListTableHead columns={AUDIT_COLUMNS} />
          <tbody>
            {events.map((event) => (
              <tr
                key={event.id}
                className="border-t border-zinc-200 align-top dark:border-zinc-800"
                data-audit-event={event.action}
              >
                <td className="px-2 py-1 whitespace-nowrap tabular-nums">
                  {new Date(event.at).toLocaleString("en")}
                </td>
                <td className="px-2 py-1">{event.actor}</td>
                <td className="px-2 py-1 font-mono text-xs">{event.action}</td>
                <td className="px-2 py-1 font-mono text-xs break-all">{event.target}</td>
                <td className="px-2 py-1 font-mono text-xs break-all">
                  {Object.keys(event.details).length ? JSON.stringify(event.details) : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {audit.data && events.length === 0 && <p className="p-2 text-sm">Nothing recorded yet.</p>}
      </div>
      {audit.hasNextPage && (
        <Button onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
          Older events
        </Button>
      )}
    </section>
  );
}
