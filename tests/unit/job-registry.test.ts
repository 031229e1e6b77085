/**
 * The job registry (app/server/jobs/registry.server.ts) lists every background job: each job
 * the store runs takes its name and watches from it, and each entry names the file that
 * starts it and claim keys of the registry.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLAIM_KEYS } from "~/domain/claim-keys";
import { JOBS, refreshJob, type JobId } from "~/server/jobs/registry.server";

const IDS = Object.keys(JOBS) as JobId[];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("the job registry", () => {
  it("is where every job added to the store in app/ takes its name and watches", () => {
    const unlisted = sourceFiles("app").flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\baddJob\(\{\s*([^,\n]*)/g)]
        .filter((match) => !/^\.\.\.refreshJob\("\w+"\)$/.test(match[1]!.trim()))
        .map((match) => `${file}: addJob({ ${match[1]}`),
    );
    expect(unlisted, "jobs added without ...refreshJob(id) from the registry").toEqual([]);
  });

  it("names for each job the file that starts it from its entry, and claim keys the registry of keys knows", () => {
    for (const id of IDS) {
      const job = JOBS[id];
      const text = readFileSync(path.join("app", job.definedIn), "utf8");
      expect(text.includes(`refreshJob("${id}")`) || text.includes(`JOBS.${id}.`), `${id} in ${job.definedIn}`).toBe(true);
      for (const family of job.claims) expect(Object.hasOwn(CLAIM_KEYS, family), `${id}: ${family}`).toBe(true);
    }
    expect(new Set(IDS.map((id) => JOBS[id].name)).size, "job names are unique").toBe(IDS.length);
  });

  it("gives the store a job's name and watches as the entry has them", () => {
    expect(refreshJob("decisionMails")).toEqual({ name: "decision mails", watches: { agents: ["status"], sendClaims: [] } });
    expect(refreshJob("requestExpiry")).toEqual({ name: "request expiry" });
  });
});
