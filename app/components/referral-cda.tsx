import type { cdaSchema } from "~/domain/referrals/cda";
import { SubmitButton, TextField, useValidatedForm, ValidatedForm, type FormResult } from "./form";

type CdaView = { canSend: boolean; sentAt: string | null; titleCompany: string; titleEmail: string; expectedCloseDate: string };

/**
 * The commission disbursement authorization on the referral's page: the PDF once sent,
 * and for the receiving agent from under contract until the closing, the form that names
 * the title company and sends it (again, with changed details) to both brokers.
 */
export function CdaSection({ referralId, cda, lastResult }: { referralId: string; cda: CdaView; lastResult: FormResult | undefined }) {
  if (!cda.canSend && cda.sentAt === null) return null;
  return (
    <section className="card space-y-4" aria-labelledby="cda-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="cda-title" className="text-lg font-bold text-slate-900">
          Commission disbursement authorization
        </h2>
        {cda.sentAt ? (
          <a href={`/referrals/${referralId}/cda.pdf`} className="text-sm font-semibold text-brand-700 hover:underline">
            CDA PDF
          </a>
        ) : null}
      </div>
      <p className="text-sm text-slate-700" data-testid="cda-state">
        {cda.sentAt
          ? `Sent to both brokers on ${cda.sentAt} for ${cda.titleCompany}.`
          : "It instructs the title company to pay the referral fee to the referring broker; the receiving broker signs it."}
      </p>
      {cda.canSend ? <CdaForm cda={cda} lastResult={lastResult} /> : null}
    </section>
  );
}

function CdaForm({ cda, lastResult }: { cda: CdaView; lastResult: FormResult | undefined }) {
  const [form, fields] = useValidatedForm<typeof cdaSchema>(lastResult, {
    id: "cda",
    defaultValue: { intent: "cda", titleCompany: cda.titleCompany, titleEmail: cda.titleEmail, expectedCloseDate: cda.expectedCloseDate },
  });
  return (
    <ValidatedForm form={form} className="space-y-3 rounded-lg border border-slate-200 p-4">
      <input type="hidden" name="intent" value="cda" />
      <TextField field={fields.titleCompany} label="Title company" autoComplete="organization" />
      <TextField field={fields.titleEmail} label="Title company's e-mail" type="email" autoComplete="email" />
      <TextField field={fields.expectedCloseDate} label="Expected closing date" type="date" />
      <SubmitButton busyLabel="Sending...">{cda.sentAt ? "Send a new CDA to both brokers" : "Send the CDA to both brokers"}</SubmitButton>
    </ValidatedForm>
  );
}
