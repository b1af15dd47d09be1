import { CachesView } from "@/components/caches/caches-view";

export const metadata = { title: "Caches · Genstudio" };

export default function CachesPage() {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <CachesView />
    </div>
  );
}
