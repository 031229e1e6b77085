import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageHeading } from "~/components/page-heading";
import { isLoopbackClient } from "~/server/auth/client-ip.server";
import { notFound } from "~/server/http.server";
import { readOutbox } from "~/server/mail/mailer.server";
import { outboxDirectory } from "~/server/service-lifecycle.server";

export const meta: MetaFunction = () => [{ title: "Outbox (development)" }, { name: "robots", content: "noindex" }];

/**
 * Outside production, mail lands in an outbox folder; this page lists it for people
 * testing the app on their own machine. It shows live password-reset links, so any
 * other client gets the same 404 as a page that does not exist.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const { config, notifier } = context.services;
  if (config.isProduction || notifier.driver !== "outbox" || !isLoopbackClient(context)) throw notFound();
  return { mails: await readOutbox(outboxDirectory(config)) };
}

export default function DevOutbox() {
  const { mails } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <PageHeading
        title="Outbox"
        intro={`${mails.length} mail${mails.length === 1 ? "" : "s"}, newest first. Only shown outside production.`}
      />
      <ol className="mt-8 space-y-4">
        {mails.map((mail) => (
          <li key={mail.id} className="card">
            <article aria-label={mail.subject}>
              <h2 className="font-semibold">{mail.subject}</h2>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 text-sm text-slate-600">
                <dt>To</dt>
                <dd className="break-all">{mail.to}</dd>
                <dt>From</dt>
                <dd className="break-all">{mail.from}</dd>
                {mail.replyTo ? (
                  <>
                    <dt>Reply-To</dt>
                    <dd className="break-all">{mail.replyTo}</dd>
                  </>
                ) : null}
                <dt>Sent</dt>
                <dd>{mail.sentAt}</dd>
              </dl>
              <pre className="mt-4 overflow-x-auto whitespace-pre-wrap rounded-lg bg-slate-100 p-4 text-sm">{mail.text}</pre>
            </article>
          </li>
        ))}
      </ol>
    </div>
  );
}
