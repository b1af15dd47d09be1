import { InvitationView } from "@/components/people/invitation-view";

export const metadata = { title: "Invitation · Genstudio" };

export default function InvitationPage() {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <InvitationView />
    </div>
  );
}
