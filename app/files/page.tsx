import { FilesView } from "@/components/files/files-view";
import { AttachmentsStoreProvider } from "@/lib/stores/attachments-store";

export const metadata = { title: "Files · Genstudio" };

export default function FilesPage() {
  return (
    <AttachmentsStoreProvider>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <FilesView />
      </div>
    </AttachmentsStoreProvider>
  );
}
