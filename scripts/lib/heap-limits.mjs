// The V8 heap limits `npm start` gives the server. V8 sizes its heap from the machine's
// memory and collects lazily, so on a large host an instance grows far past what it holds
// live (decision 0077): these limits make it collect before it grows past its share of
// the memory it may use.
import { readFileSync } from "node:fs";

/** The memory assumed when neither the container nor MEMORY_LIMIT_MB names one. */
const DEFAULT_MEMORY_MB = 512;

/** cgroup v2's and v1's memory limit files, as a container sees its own. */
const CGROUP_LIMIT_FILES = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"];

// cgroup v1 writes "no limit" as a huge number (2^63 rounded down to a page); anything past
// a terabyte is taken as no limit.
const NO_LIMIT_BYTES = 2 ** 40;

/** The container's memory limit in MB, or null when none is set or none can be read. */
export function containerLimitMb(files = CGROUP_LIMIT_FILES) {
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, "utf8").trim();
    } catch {
      continue;
    }
    if (text === "max") return null;
    const bytes = Number(text);
    if (!Number.isFinite(bytes) || bytes <= 0) continue;
    return bytes >= NO_LIMIT_BYTES ? null : Math.floor(bytes / 2 ** 20);
  }
  return null;
}

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

/**
 * The flags for a memory budget: two fifths of it for the old generation, and semi-spaces of
 * a 64th of it (V8's default, 16 MB, is a 64th of 1 GB). The rest is for what is not V8's
 * heap, measured at 120 MB at the large network after start (node itself, the compiled
 * server bundle, SQLite's page cache, photo resizing, sockets' buffers), and for the
 * garbage a load leaves between collections.
 */
function heapFlags(memoryMb) {
  const oldSpaceMb = Math.max(64, Math.floor((memoryMb * 2) / 5));
  const semiSpaceMb = clamp(Math.round(memoryMb / 64), 1, 16);
  return [`--max-old-space-size=${oldSpaceMb}`, `--max-semi-space-size=${semiSpaceMb}`];
}

/** Whether the operator already set a heap ceiling, on node's command line or in NODE_OPTIONS. */
function ceilingAlreadySet(execArgv, nodeOptions) {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((flag) => /^--max[-_]old[-_]space[-_]size/.test(flag));
}

/**
 * What `npm start` does about the heap: `flags` to start the server with (none when the
 * operator set a ceiling themselves) and `line`, the start-up line that says which and why.
 */
export function chooseHeapLimits({ env, execArgv, limitFiles = CGROUP_LIMIT_FILES }) {
  if (ceilingAlreadySet(execArgv, env.NODE_OPTIONS ?? "")) {
    return { flags: [], line: "Memory: the heap ceiling given to node is kept." };
  }
  const containerMb = containerLimitMb(limitFiles);
  const configured = env.MEMORY_LIMIT_MB?.trim() ?? "";
  const configuredMb = /^[1-9]\d*$/.test(configured) ? Number(configured) : null;
  const [memoryMb, source] =
    containerMb !== null
      ? [containerMb, "the container's memory limit"]
      : configuredMb !== null
        ? [configuredMb, "MEMORY_LIMIT_MB"]
        : configured !== ""
          ? [DEFAULT_MEMORY_MB, `the default: MEMORY_LIMIT_MB "${configured}" is not a whole number of MB`]
          : [DEFAULT_MEMORY_MB, "the default: no container limit or MEMORY_LIMIT_MB"];
  const flags = heapFlags(memoryMb);
  return { flags, line: `Memory: ${memoryMb} MB (${source}), so V8 runs with ${flags.join(" ")}.` };
}
