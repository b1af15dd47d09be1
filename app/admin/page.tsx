import { AdminView } from "@/components/people/admin-view";

export const metadata = { title: "Admin · Genstudio" };

export default function AdminPage() {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <AdminView />
    </div>
  );
}
