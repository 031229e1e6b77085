import { CLAIM_KEYS } from "~/domain/claim-keys";
import { checkTexasLicense, lapseVerdict, oklahomaVerdict, type LicenseVerdict } from "~/domain/license-check";
import { sponsorUpdate, sponsoringBroker, type SponsoringBroker } from "~/domain/sponsor";
import type { Agent } from "~/domain/workbook/tabs";
import type { Config } from "../config.server";
import { renderMailBody } from "../mail/html.server";
import type { Mail } from "../mail/mailer.server";
import type { Notifier } from "../notifier/notifier.server";
import type { Store } from "../store/store.server";
import { apiSource, fileUrlSource, type LicenseSource } from "./license-source.server";
import { licenseDatabaseFile, openLicenseTable, type LicenseTable } from "./license-table.server";
import { JOBS } from "../jobs/registry.server";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The check's columns in an agent's row. */
type LicenseCheckCells = Pick<Agent, "licenseCheck" | "licenseCheckedAt" | "licenseCheckNote">;

type ApplicantCheck = LicenseCheckCells & {
  /** True when LICENSE_AUTO_APPROVE is on and the check is clean: the applicant is approved at once. */
  approve: boolean;
};

export type LicenseService = {
  table: LicenseTable;
  /** The check of a new applicant; it never refuses anyone (staff decide). */
  checkApplicant(agent: Pick<Agent, "fullName" | "email" | "brokerage" | "licenseNumber" | "licenseState">, now?: Date): ApplicantCheck;
  /**
   * The sponsoring broker TREC's data gives a Texas license (null: none); undefined when the
   * license is not in the data, no data is loaded, or it cannot be read.
   */
  sponsorOf(licenseNumber: string, now?: Date): SponsoringBroker | null | undefined;
  /** True once TREC's data has been loaded and can be read: only then can a Texas applicant's broker be looked up. */
  dataLoaded(): boolean;
  /** Moves Texas members whose broker came from TREC to their new sponsor; returns the members moved. */
  followSponsors(now?: Date): Promise<Agent[]>;
  /** Loads the configured source, then follows sponsors and lists lapses; a failed load keeps the previous data. */
  refresh(now?: Date): Promise<void>;
  /** Marks approved Texas members whose license lapsed and mails staff the list; returns them. */
  checkLapses(now?: Date): Promise<Agent[]>;
  /** Refreshes daily when TREC_LICENSE_FILE_URL or TREC_LICENSE_API_URL is set, and follows sponsors and lists lapses after each load. */
  start(): void;
  stop(): void;
  /** The hourly work, also run at start: the refresh or lapse check, then staff told once when no data is loaded. */
  tick(now?: Date): Promise<void>;
};

type Deps = {
  config: Pick<Config, "dataDir" | "licenses" | "supportEmail">;
  store: Store;
  notifier: Pick<Notifier, "enqueue">;
  log?: Pick<Console, "info" | "error">;
};

export function configuredSource(source: Config["licenses"]["source"]): LicenseSource | undefined {
  if (source === undefined) return undefined;
  return source.kind === "file" ? fileUrlSource(source.url) : apiSource(source.url);
}

function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function createLicenseService({ config, store, notifier, log = console }: Deps): LicenseService {
  const table = openLicenseTable(licenseDatabaseFile(config.dataDir));
  let timer: NodeJS.Timeout | undefined;

  function verdict(agent: Parameters<LicenseService["checkApplicant"]>[0], now: Date): LicenseVerdict & { clean: boolean } {
    if (agent.licenseState === "OK") return { ...oklahomaVerdict(agent.licenseNumber), clean: false };
    if (agent.licenseState !== "TX") return { check: "", note: "", clean: false };
    try {
      if (table.info() === undefined)
        return { check: "TX not checked", note: "No TREC license data is loaded (npm run licenses:update).", clean: false };
      const result = checkTexasLicense(agent, table.lookup(agent.licenseNumber), today(now));
      return { check: result.check, note: result.note, clean: result.qualifiesForAutoApproval };
    } catch (error) {
      // The check informs staff; a broken license file must never stop a registration.
      log.error("Licenses: the look-up failed.", error);
      return { check: "TX not checked", note: `The license data could not be read: ${(error as Error).message}`, clean: false };
    }
  }

  function checkApplicant(agent: Parameters<LicenseService["checkApplicant"]>[0], now = new Date()): ApplicantCheck {
    const { check, note, clean } = verdict(agent, now);
    if (check === "") return { licenseCheck: undefined, licenseCheckedAt: undefined, licenseCheckNote: undefined, approve: false };
    const approve = clean && config.licenses.autoApprove;
    return {
      licenseCheck: approve ? `${check} (approved automatically)` : check,
      licenseCheckedAt: now.toISOString(),
      licenseCheckNote: note,
      approve,
    };
  }

  function sponsorOf(licenseNumber: string, now = new Date()): SponsoringBroker | null | undefined {
    try {
      const license = table.lookup(licenseNumber);
      return license && sponsoringBroker(license, (number) => table.lookup(number), today(now));
    } catch (error) {
      // Filling the broker is a convenience: a broken license file leaves the applicant to type it.
      log.error("Licenses: the sponsor look-up failed.", error);
      return undefined;
    }
  }

  function dataLoaded(): boolean {
    try {
      return table.info() !== undefined;
    } catch (error) {
      log.error("Licenses: the license data could not be read.", error);
      return false;
    }
  }

  /** Set once this process asked to mail staff that no data is loaded; the claim keeps it to one mail across instances and restarts. */
  let toldNotLoaded = false;

  function tellStaffNotLoaded(now: Date): void {
    if (toldNotLoaded || dataLoaded()) return;
    toldNotLoaded = true;
    notifier.enqueue(
      { mail: notLoadedMail(config.supportEmail), about: "the staff mail that no TREC license data is loaded" },
      { once: NOT_LOADED_CLAIM, now },
    );
  }

  async function followSponsors(now = new Date()): Promise<Agent[]> {
    const moved: Agent[] = [];
    for (const agent of store.agents.all()) {
      if (agent.licenseState !== "TX" || agent.brokerFrom !== "trec") continue;
      const update = sponsorUpdate(agent, sponsorOf(agent.licenseNumber, now) ?? null);
      if (update !== null) moved.push(await store.agents.update(agent.id, { ...update, updatedAt: now.toISOString() }));
    }
    return moved;
  }

  /** After each load: the brokers first, so the lapse list reads the current ones. */
  async function afterLoad(now: Date): Promise<void> {
    const moved = await followSponsors(now);
    if (moved.length > 0)
      log.info(`Licenses: ${moved.length} Texas members' sponsoring brokers changed in TREC's data; their profiles follow.`);
    const lapsed = await checkLapses(now);
    if (lapsed.length > 0) log.info(`Licenses: ${lapsed.length} approved Texas members' licenses have lapsed; staff are mailed the list.`);
  }

  async function checkLapses(now = new Date()): Promise<Agent[]> {
    const data = table.info();
    if (data === undefined) return [];
    lapsesCheckedFor = data.loadedAt;
    const lapsed: Agent[] = [];
    for (const agent of store.agents.by("status", "approved")) {
      if (agent.licenseState !== "TX") continue;
      const license = table.lookup(agent.licenseNumber);
      const lapse = lapseVerdict(license, today(now));
      if (lapse === null) continue;
      const note = license
        ? checkTexasLicense(agent, license, today(now)).note
        : `License ${agent.licenseNumber} is no longer in TREC's license holder data.`;
      // Written only when it changes: staff's sheet is not touched every day for the same lapse.
      const current =
        agent.licenseCheck === lapse
          ? agent
          : await store.agents.update(agent.id, { licenseCheck: lapse, licenseCheckedAt: now.toISOString(), licenseCheckNote: note });
      lapsed.push(current);
    }
    if (lapsed.length > 0) notifier.enqueue({ mail: lapseMail(lapsed, config.supportEmail), about: "the staff mail of lapsed licenses" });
    return lapsed;
  }

  async function refresh(now = new Date()): Promise<void> {
    const source = configuredSource(config.licenses.source);
    if (source === undefined) return;
    try {
      const rows = await table.replace(
        source.records(() => undefined),
        source.label,
        now,
      );
      log.info(`Licenses: loaded ${rows} TREC license records from ${source.label}.`);
    } catch (error) {
      log.error(`Licenses: could not load ${source.label}; the previous data stays in use.`, error);
      return;
    }
    await afterLoad(now);
  }

  /** The load whose lapses were last listed: each load is checked once (again after a restart). */
  let lapsesCheckedFor: string | undefined;

  /**
   * Hourly: with a URL configured, reloads data a day old (the refresh lists lapses);
   * otherwise lists the lapses of data loaded since the last look (`npm run
   * licenses:update` run from cron).
   */
  async function tick(now = new Date()): Promise<void> {
    const loadedAt = table.info()?.loadedAt;
    const age = loadedAt === undefined ? Infinity : now.getTime() - Date.parse(loadedAt);
    if (config.licenses.source !== undefined && age >= DAY_MS) await refresh(now);
    else if (loadedAt !== undefined && loadedAt !== lapsesCheckedFor) await afterLoad(now);
    tellStaffNotLoaded(now);
  }

  function start(): void {
    if (timer !== undefined) return;
    const run = () =>
      timer !== undefined && void tick().catch((error: unknown) => log.error("Licenses: the refresh or lapse check failed.", error));
    timer = setInterval(run, JOBS.licenseChecks.everyMs);
    timer.unref();
    setImmediate(run);
  }

  function stop(): void {
    clearInterval(timer);
    timer = undefined;
    table.close();
  }

  return { table, checkApplicant, sponsorOf, dataLoaded, followSponsors, refresh, checkLapses, start, stop, tick };
}

/** What /healthz and the staff mail say while no TREC license data has ever been loaded. */
export const LICENSE_DATA_MISSING =
  "No TREC license data is loaded: Texas applicants' licenses are not checked and their sponsoring brokers cannot be filled in, so they are asked to type them. Load it with npm run licenses:update, or set TREC_LICENSE_FILE_URL or TREC_LICENSE_API_URL (operator guide, Texas license data).";

/** The claim of the staff mail: a fresh install's missing data is told once, whatever the instances and restarts. */
const NOT_LOADED_CLAIM = CLAIM_KEYS["licenses-not-loaded"].key();

function notLoadedMail(supportEmail: string): Mail {
  return { to: supportEmail, subject: "TREC license data is not loaded", ...renderMailBody(LICENSE_DATA_MISSING, []) };
}

function lapseMail(agents: readonly Agent[], supportEmail: string): Mail {
  const body = renderMailBody(
    `${agents.length} approved Texas member${agents.length === 1 ? "'s license has" : "s' licenses have"} lapsed in TREC's data. Nothing was changed: decide in the sheet.`,
    agents.map((agent) => [`${agent.fullName} <${agent.email}>`, `${agent.licenseCheck ?? ""} — ${agent.licenseCheckNote ?? ""}`]),
  );
  return { to: supportEmail, subject: `License lapses: ${agents.length} approved Texas member${agents.length === 1 ? "" : "s"}`, ...body };
}
