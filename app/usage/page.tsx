import { UsageView } from "@/components/usage/usage-view";

export const metadata = { title: "Usage · Genstudio" };

export default function UsagePage() {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <UsageView />
    </div>
  );
}
