import { CLAIM_KEYS } from "~/domain/claim-keys";
import { createHash } from "node:crypto";
import PDFDocument from "pdfkit";
import { CDA_SIGNATURE_LINES, cdaLines, cdaRefusal, mayShowCdaForm, type CdaInput } from "~/domain/referrals/cda";
import { stepPatch } from "~/domain/referrals/agreement";
import { shortReference } from "~/domain/referrals/labels";
import type { Agent, Referral } from "~/domain/workbook/tabs";
import { cdaMails } from "../mail/cda-mail.server";
import { addEvent } from "./referral-events.server";
import { referralPdfResponse } from "./agreement-pdf.server";
import { changeReferral, memberParty, type ChangeOptions, type ReferralResult } from "./referrals.server";
import type { ReferralServices } from "./referral-notify.server";

/** A referral with a CDA sent: the title company is known. */
type WithCda = Referral & { titleCompany: string; titleEmail: string; cdaSentAt: string };

function hasCda(referral: Referral): referral is WithCda {
  return referral.cdaSentAt !== undefined && referral.titleCompany !== undefined && referral.titleEmail !== undefined;
}

/** The CDA's version: its text's SHA-256, short. The same details sent twice are one version and mailed once. */
function cdaVersion(referral: WithCda): string {
  return createHash("sha256").update(cdaLines(referral).join("\n")).digest("hex").slice(0, 16);
}

/**
 * The CDA as a PDF, made with PDFKit like the agreement: every value written as text in
 * Helvetica, so nothing typed is ever markup. Made again from the row at each download.
 */
function cdaPdf(referral: WithCda): Promise<Buffer> {
  const title = `Commission Disbursement Authorization ${shortReference(referral.id)}`;
  const document = new PDFDocument({
    size: "LETTER",
    margin: 64,
    info: { Title: title, Subject: "Commission disbursement authorization" },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on("data", (chunk: Buffer) => chunks.push(chunk));
    document.on("end", () => resolve(Buffer.concat(chunks)));
    document.on("error", reject);
  });
  document.font("Helvetica-Bold").fontSize(16).text(title);
  document
    .font("Helvetica")
    .fontSize(10)
    .fillColor("#475569")
    .text(`Prepared on ${referral.cdaSentAt.slice(0, 10)}`)
    .fillColor("black");
  document.moveDown(1).fontSize(11).text(cdaLines(referral).join("\n"), { lineGap: 2 });
  document.moveDown(2);
  for (const line of CDA_SIGNATURE_LINES) document.text(line).moveDown(1.2);
  document.end();
  return done;
}

/** The referral page's CDA section for this member: whether they may send one, and the one sent. */
export function cdaFormView(referral: Referral, member: Agent) {
  return {
    canSend: mayShowCdaForm(referral.status, memberParty(referral, member)),
    sentAt: referral.cdaSentAt?.slice(0, 10) ?? null,
    titleCompany: referral.titleCompany ?? "",
    titleEmail: referral.titleEmail ?? "",
    expectedCloseDate: referral.expectedCloseDate?.slice(0, 10) ?? "",
  };
}

/**
 * The receiving agent names the title company and the expected closing: the row keeps
 * them, the timeline says so, and the CDA goes to both brokers and both agents, once per
 * version (`once: cda:<referral>:<version>`). Refused for the referring agent and outside
 * under contract and closed.
 */
export function sendCda(
  services: ReferralServices,
  options: ChangeOptions & { input: CdaInput; log?: Pick<Console, "error"> },
): Promise<ReferralResult> {
  const { input, now, member, link, log = console } = options;
  return changeReferral(services, options, async (referral, party) => {
    const refusal = cdaRefusal(referral, party);
    if (refusal) return { ok: false, ...refusal };
    const updated = await services.store.referrals.update(referral.id, {
      titleCompany: input.titleCompany,
      titleEmail: input.titleEmail,
      // The date is kept as the under-contract step keeps it.
      ...stepPatch(referral, { intent: "under_contract", expectedCloseDate: input.expectedCloseDate }),
      cdaSentAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });
    if (!hasCda(updated)) throw new Error(`Referral ${referral.id}: the CDA's columns were not stored`);
    const note = `Commission disbursement authorization for ${input.titleCompany} <${input.titleEmail}>, expected closing ${input.expectedCloseDate}, sent to both brokers.`;
    await addEvent(services, updated, "cda", member.email, note, now);
    try {
      const pdf = await cdaPdf(updated);
      services.notifier.enqueueAll(
        cdaMails(updated, pdf, link).map((mail) => ({ mail, about: `the CDA of referral ${updated.id} to ${mail.to}` })),
        { now, once: CLAIM_KEYS.cda.key(updated.id, cdaVersion(updated)) },
      );
    } catch (error) {
      log.error(`Referral ${updated.id}: the CDA's PDF could not be made, so it was not mailed.`, error);
    }
    return { ok: true, referral: updated };
  });
}

/** The CDA's PDF as a download, or null when none was sent. */
export async function cdaPdfResponse(referral: Referral): Promise<Response | null> {
  if (!hasCda(referral)) return null;
  return referralPdfResponse(await cdaPdf(referral), "commission-disbursement", referral);
}
