import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SavedNotice } from "~/components/saved-notice";
import { SettingsPageTop } from "~/components/settings-page-top";
import { SubmitButton } from "~/components/form";
import { useFlashNotice } from "~/components/use-flash-notice";
import { PRODUCT_NAME } from "~/domain/product";
import { passRetryAfter, tooManyInit, tooManyMessage } from "~/server/accounts/throttle.server";
import { publicUrl } from "~/server/accounts/urls.server";
import { requireMember } from "~/server/auth/session.server";
import { calendarFeedToken, newCalendarKey } from "~/server/calendar/calendar.server";
import { redirectWithNotice, takeNotice } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";
import { StoreError } from "~/server/store/store.server";
import { limitMemberWrite, WRITE_NAMES } from "~/server/write-limits.server";

export const meta: MetaFunction = () => [{ title: `Calendar | ${PRODUCT_NAME}` }];

export const headers = passRetryAfter;

const CALENDAR_SETTINGS_PATH = "/settings/calendar";
const LINK_FAILED = "Your new link could not be made just now. Please try again in a moment.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { notice, headers } = await takeNotice(context.services, request, ["calendarLinkMade"]);
  const key = member.calendarKey;
  const feedUrl = key ? publicUrl(context.services.config, `/calendar/${calendarFeedToken(context.services, key)}.ics`, request) : null;
  return data({ feedUrl, notice }, { headers });
}

/** Makes the member's feed link, or a new one: the new key ends every link made from the old. */
export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { refusal } = await readForm(request);
  if (refusal) return data({ error: refusal.message }, { status: refusal.status });
  const allowed = limitMemberWrite(context, "settings", member);
  if (!allowed.allowed)
    return data({ error: tooManyMessage(WRITE_NAMES.settings, allowed.retryAfterSeconds) }, tooManyInit(allowed.retryAfterSeconds));
  try {
    await context.services.store.agents.update(member.id, { calendarKey: newCalendarKey() });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    console.error(`Calendar link of agent ${member.id} not saved:`, error);
    return data({ error: LINK_FAILED }, { status: 503 });
  }
  return redirectWithNotice(context.services, CALENDAR_SETTINGS_PATH, "calendarLinkMade");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function CalendarSettings() {
  const { feedUrl, ...loaded } = useLoaderData<typeof loader>();
  const notice = useFlashNotice(loaded.notice);
  const failed = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-12">
      <SettingsPageTop
        title="Subscribe to your calendar"
        intro="One private calendar with your open invitations' Respond by times, your referrals' expected closings and fee due dates. Your calendar app checks it for changes by itself."
      />
      <SavedNotice text={failed ? null : notice} className="mt-6" />
      {failed ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {failed.error}
        </p>
      ) : null}
      <section className="card mt-8 space-y-4" aria-labelledby="calendar-link-title">
        <h2 id="calendar-link-title" className="text-lg font-bold text-slate-900">
          Your calendar link
        </h2>
        {feedUrl ? <FeedLink url={feedUrl} /> : <p className="text-slate-600">You have no calendar link yet.</p>}
        <p className="text-sm text-slate-600">
          Anyone with the link can read these dates, so keep it to yourself. If it got out, make a new link: the old one stops working.
        </p>
        <Form method="post">
          <SubmitButton busyLabel="Making the link..." className="btn-outline">
            {feedUrl ? "Make a new link" : "Make my calendar link"}
          </SubmitButton>
        </Form>
      </section>
    </div>
  );
}

/** The link to paste into a calendar app's "subscribe by URL"; Copy appears only where a script can copy. */
function FeedLink({ url }: { url: string }) {
  const [canCopy, setCanCopy] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setCanCopy(typeof navigator !== "undefined" && Boolean(navigator.clipboard)), []);
  return (
    <div className="space-y-2">
      <label htmlFor="calendar-feed-url" className="block font-semibold text-slate-900">
        Add this address to your calendar app (Google Calendar: Other calendars, From URL; Outlook and Apple Calendar: Subscribe)
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id="calendar-feed-url"
          readOnly
          value={url}
          className="w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-800"
          onFocus={(event) => event.currentTarget.select()}
        />
        {canCopy ? (
          <button
            type="button"
            className="btn-primary shrink-0"
            onClick={() => void navigator.clipboard.writeText(url).then(() => setCopied(true))}
          >
            Copy
          </button>
        ) : null}
      </div>
      <p role="status" className="text-sm text-green-800">
        {copied ? "Copied." : ""}
      </p>
    </div>
  );
}
