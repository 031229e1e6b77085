import PDFDocument from "pdfkit";
import { agreementHeading, shortReference } from "~/domain/referrals/labels";
import type { BrokerSignoff, Referral } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";
import { agreementTextOf } from "./agreement-text.server";

type AgreementHeading = ReturnType<typeof agreementHeading>;

/** The heading the printable page and the PDF put above the agreement's text. */
export function referralHeading(services: Pick<Services, "store">, referral: Referral): AgreementHeading {
  return agreementHeading(referral.id, services.store.requests.get(referral.requestId)?.title);
}

type Acceptance = { role: string; name?: string; at?: string; hash?: string };

const SIDE_ROLES = { referring: "Referring broker", receiving: "Receiving broker" } as const;

/** The broker sign-offs on the text this PDF holds, in the order they happened. */
function brokerLines(referral: Referral, signoffs: readonly BrokerSignoff[]): string[] {
  return signoffs
    .filter((row) => row.agreementHash === referral.agreementHash)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((row) => {
      const broker = `${SIDE_ROLES[row.side]} ${row.brokerName} (license ${row.brokerLicense})`;
      if (row.kind === "attested")
        return `${broker}: the agent ${row.byEmail} attested the broker's authority to sign, on ${row.createdAt}`;
      if (row.kind === "requested") return `${broker}: asked to approve by ${row.byEmail} on ${row.createdAt}`;
      return `${broker}: approved by ${row.signedName ?? ""} (license ${row.signedLicense ?? ""}) on ${row.createdAt}, from ${row.signedIp ?? ""}`;
    });
}

function acceptances(referral: Referral): Acceptance[] {
  return [
    { role: "Referring agent", name: referral.referringSignedName, at: referral.referringSignedAt, hash: referral.referringSignedHash },
    { role: "Receiving agent", name: referral.receivingSignedName, at: referral.receivingSignedAt, hash: referral.receivingSignedHash },
  ];
}

/**
 * The agreement as a PDF, made on the server with PDFKit: its heading (the reference and
 * the request's title, outside the signed text), the exact text each party
 * signed, then both acceptances (typed name, time, the SHA-256 they signed) and the
 * brokers' sign-offs on that text (attested, asked, approved). Every value
 * is written as text with the standard Helvetica font, so nothing typed is ever markup.
 */
export function agreementPdf(services: Pick<Services, "store">, referral: Referral): Promise<Buffer> {
  const heading = referralHeading(services, referral);
  const document = new PDFDocument({
    size: "LETTER",
    margin: 64,
    info: { Title: heading.title, Subject: "Referral agreement" },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on("data", (chunk: Buffer) => chunks.push(chunk));
    document.on("end", () => resolve(Buffer.concat(chunks)));
    document.on("error", reject);
  });
  document.font("Helvetica-Bold").fontSize(16).text(heading.title);
  if (heading.request) document.font("Helvetica").fontSize(11).fillColor("#475569").text(heading.request).fillColor("black");
  document.moveDown(1);
  document.font("Helvetica").fontSize(11).text(agreementTextOf(referral), { lineGap: 2 });
  document.moveDown(1.5).font("Helvetica-Bold").text("Electronic acceptances");
  document.font("Helvetica").fontSize(10);
  for (const acceptance of acceptances(referral)) {
    document.moveDown(0.5);
    if (acceptance.name && acceptance.at) {
      document.text(`${acceptance.role}: signed by ${acceptance.name} on ${acceptance.at}`);
      document.text(`SHA-256 of the text signed: ${acceptance.hash ?? ""}`);
    } else {
      document.text(`${acceptance.role}: not signed yet`);
    }
  }
  document.moveDown(1).font("Helvetica-Bold").fontSize(11).text("Broker sign-offs");
  document.font("Helvetica").fontSize(10);
  const lines = brokerLines(referral, services.store.brokerSignoffs.by("referralId", referral.id));
  for (const line of lines.length > 0 ? lines : ["None yet."]) document.moveDown(0.5).text(line);
  document.end();
  return done;
}

/** A referral's PDF as a download only its viewer keeps: `kind` names the file, e.g. "referral-agreement-AB12CD.pdf". */
export function referralPdfResponse(pdf: Buffer, kind: string, referral: Pick<Referral, "id">): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${kind}-${shortReference(referral.id).slice(4)}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}

export async function agreementPdfResponse(services: Pick<Services, "store">, referral: Referral): Promise<Response> {
  return referralPdfResponse(await agreementPdf(services, referral), "referral-agreement", referral);
}
