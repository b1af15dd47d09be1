import { AccountView } from "@/components/people/account-view";

export const metadata = { title: "Account · Genstudio" };

export default function AccountPage() {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <AccountView />
    </div>
  );
}
