// npm run build: dist/esm (ES modules) and dist/cjs (CommonJS), each with its type declarations,
// from src/ alone. dist/cjs/package.json makes Node read the files there as CommonJS.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
rmSync("dist", { recursive: true, force: true });
for (const project of ["tsconfig.json", "tsconfig.cjs.json"]) {
  execFileSync(process.execPath, [tsc, "--project", project], { stdio: "inherit" });
}
writeFileSync("dist/cjs/package.json", '{\n  "type": "commonjs"\n}\n');
