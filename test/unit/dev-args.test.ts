/** `npm start` arguments (tools/dev/dev-args.ts): the port from --port / --port= / PORT, development vars unless .dev.vars sets them. */
import { describe, expect, it } from "vitest";
import { devServerArgs } from "../../tools/dev/dev-args";

const DEV_VARS = ["--var", "SLUICE_ENV:development", "--var", "SLUICE_AUDIT_KEY:dev-only-audit-key-not-for-production"];

describe("devServerArgs", () => {
  it("default port 8787, development vars, on 127.0.0.1", () => {
    expect(devServerArgs([], undefined, new Set())).toEqual(["dev", "--ip", "127.0.0.1", "--port", "8787", ...DEV_VARS]);
  });
  it("`npm start -- --port 18980` and `--port=18981`, the last one wins over PORT; other args pass through", () => {
    expect(devServerArgs(["--port", "18980", "--log-level", "debug"], "9000", new Set())).toEqual(["dev", "--ip", "127.0.0.1", "--port", "18980", ...DEV_VARS, "--log-level", "debug"]);
    expect(devServerArgs(["--port=18981"], undefined, new Set())[4]).toBe("18981");
    expect(devServerArgs([], "9000", new Set())[4]).toBe("9000");
  });
  it("a name .dev.vars sets is not passed with --var (.dev.vars wins)", () => {
    expect(devServerArgs([], undefined, new Set(["SLUICE_AUDIT_KEY"]))).toEqual(["dev", "--ip", "127.0.0.1", "--port", "8787", "--var", "SLUICE_ENV:development"]);
  });
  it("bad ports are named", () => {
    expect(() => devServerArgs(["--port", "abc"], undefined, new Set())).toThrow('--port must be a port number from 1 to 65535, got "abc"');
    expect(() => devServerArgs([], "70000", new Set())).toThrow('PORT must be a port number from 1 to 65535, got "70000"');
    expect(() => devServerArgs(["--port"], undefined, new Set())).toThrow("--port needs a value");
  });
});
