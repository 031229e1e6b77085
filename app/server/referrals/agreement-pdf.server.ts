import PDFDocument from "pdfkit";
import type { agreementHeading } from "~/domain/referrals/labels";
import type { Referral } from "~/domain/workbook/tabs";
import { agreementTextOf } from "./agreement-text.server";

type AgreementHeading = ReturnType<typeof agreementHeading>;

type Acceptance = { role: string; name?: string; at?: string; hash?: string };

function acceptances(referral: Referral): Acceptance[] {
  return [
    { role: "Referring agent", name: referral.referringSignedName, at: referral.referringSignedAt, hash: referral.referringSignedHash },
    { role: "Receiving agent", name: referral.receivingSignedName, at: referral.receivingSignedAt, hash: referral.receivingSignedHash },
  ];
}

/**
 * The agreement as a PDF, made on the server with PDFKit: its heading (the reference and
 * the request's title, outside the signed text), the exact text each party
 * signed, then both acceptances (typed name, time, the SHA-256 they signed). Every value
 * is written as text with the standard Helvetica font, so nothing typed is ever markup.
 */
export function agreementPdf(referral: Referral, heading: AgreementHeading): Promise<Buffer> {
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
  document.end();
  return done;
}
