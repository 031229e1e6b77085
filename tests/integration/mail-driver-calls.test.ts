/**
 * The notifier is the one way a mail leaves the app (docs/mail.md): every use of the mail
 * driver's `send` in app/, found by the type checker (not by text, so `res.send` is not one
 * and a driver under another name is), is in the notifier's own module.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * Where `Mailer.send` is used (files relative to the project): every `x.send` whose symbol
 * is the interface's member or one of its implementations, whatever `x` is named.
 */
function mailerSendUses(): string[] {
  const { config } = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const program = ts.createProgram(sourceFiles(path.join(root, "app")), options);
  const checker = program.getTypeChecker();
  const mailerFile = program.getSourceFile(path.join(root, "app/server/mail/mailer.server.ts"));
  const mailer = mailerFile?.statements.find((statement) => ts.isInterfaceDeclaration(statement) && statement.name.text === "Mailer");
  if (!mailer || !ts.isInterfaceDeclaration(mailer)) throw new Error("Mailer is no longer declared in mailer.server.ts");
  const mailerType = checker.getTypeAtLocation(mailer.name);
  const uses: string[] = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(path.join(root, "app"))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && node.name.text === "send") {
        const type = checker.getTypeAtLocation(node.expression);
        if (checker.isTypeAssignableTo(type, mailerType)) uses.push(path.relative(root, file.fileName));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return uses;
}

describe("the mail driver", () => {
  it("is called only by the notifier", { timeout: 60_000 }, () => {
    const calls = mailerSendUses();
    expect(calls.length).toBeGreaterThan(0);
    expect([...new Set(calls)]).toEqual(["app/server/notifier/notifier.server.ts"]);
  });
});
