import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { PageHeading } from "~/components/page-heading";

/** The top of a member's settings page: the way back to the dashboard, then the page's heading. */
export function SettingsPageTop({ title, intro }: { title: ReactNode; intro: ReactNode }) {
  return (
    <>
      <p className="text-sm">
        <Link to="/member-dashboard" className="font-semibold text-brand-700 hover:underline">
          ← Back to Dashboard
        </Link>
      </p>
      <div className="mt-4">
        <PageHeading title={title} intro={intro} />
      </div>
    </>
  );
}
