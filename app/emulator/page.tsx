import { EmulatorView } from "@/components/emulator/emulator-view";
import { serverEnv } from "@/lib/server/config/env";

export const metadata = { title: "Emulator · Genstudio" };
export const dynamic = "force-dynamic";

export default function EmulatorPage() {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <EmulatorView mode={serverEnv().mode} />
    </div>
  );
}
