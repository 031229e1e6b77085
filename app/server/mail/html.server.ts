const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** User text goes into mail HTML only through this. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

export type MailRow = [label: string, value: string];

/** A plain, readable mail body built from labelled rows, in text and HTML. */
export function renderMailBody(intro: string, rows: MailRow[], outro = ""): { text: string; html: string } {
  const text = [intro, "", ...rows.map(([label, value]) => `${label}: ${value}`), "", outro].join("\n").trim();
  const htmlRows = rows
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  const html = `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5"><p>${escapeHtml(intro)}</p><table>${htmlRows}</table>${outro ? `<p>${escapeHtml(outro)}</p>` : ""}</div>`;
  return { text, html };
}
