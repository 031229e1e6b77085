import { BOT_TRAP_FIELDS } from "~/domain/bot-trap";

/**
 * The anonymous forms' bot trap (docs/decisions/0058): the signed time the page rendered
 * the form, and a honeypot field placed off the screen. People never see or reach it: it is
 * hidden from screen readers, out of the tab order, and never autofilled; only a script that
 * fills every field it finds fills it. Works the same without JavaScript.
 */
export function BotTrapFields({ startedAt }: { startedAt: string }) {
  const honeypotId = `${BOT_TRAP_FIELDS.honeypot}-field`;
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
      <label htmlFor={honeypotId}>Website (leave this field empty)</label>
      <input id={honeypotId} type="text" name={BOT_TRAP_FIELDS.honeypot} tabIndex={-1} autoComplete="off" defaultValue="" />
      <input type="hidden" name={BOT_TRAP_FIELDS.startedAt} value={startedAt} />
    </div>
  );
}
