import { LogsView } from "@/components/logs/logs-view";

export const metadata = { title: "Request logs · Genstudio" };

export default function LogsPage() {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <LogsView />
    </div>
  );
}
