/** Client authentication settings (pure): modes, auto, entries, problems by name (never a value). */
import { describe, expect, it } from "vitest";
import { readClientAuthConfig } from "../../../src/config/client-auth-config";
import { secretProblem, usableSecret } from "../../../src/config/secrets";

const FP = "ab".repeat(32);
const DEV = { SLUICE_ENV: "development" };

describe("readClientAuthConfig", () => {
  const modes: Array<[Record<string, string>, "required" | "off"]> = [
    [{}, "required"],
    [DEV, "off"],
    [{ ...DEV, SLUICE_CLIENT_AUTH: "auto" }, "off"],
    [{ ...DEV, SLUICE_CLIENT_KEY_SHA256: FP }, "required"],
    [{ ...DEV, SLUICE_CLIENT_AUTH: "required" }, "required"],
    [{ SLUICE_CLIENT_AUTH: "off" }, "off"],
    [{ ...DEV, SLUICE_CLIENT_AUTH: "yes" }, "required"],
  ];
  for (const [env, mode] of modes) {
    it(`${JSON.stringify(env)} → ${mode}`, () => expect(readClientAuthConfig(env).mode).toBe(mode));
  }

  it("parses lists separated by commas and whitespace, lowercases fingerprints, names bad entries without values", () => {
    const c = readClientAuthConfig({
      SLUICE_CLIENT_KEY_SHA256: ` ${FP.toUpperCase()},\n${"c".repeat(64)}, not-a-hash `,
      SLUICE_GATEWAY_KEYS: "gw-aaaaaaaaaaaaaaaa short dev-only-gateway-key-1234",
      SLUICE_CLIENT_AUTH: "on",
    });
    expect([...c.fingerprints]).toEqual([FP, "c".repeat(64)]);
    expect(c.gatewayKeys).toEqual(["gw-aaaaaaaaaaaaaaaa"]);
    expect(c.problems).toEqual([
      { name: "SLUICE_CLIENT_KEY_SHA256", message: "SLUICE_CLIENT_KEY_SHA256: 1 entry is not a SHA-256 hex fingerprint (64 hex digits) and ignored" },
      { name: "SLUICE_GATEWAY_KEYS", message: "SLUICE_GATEWAY_KEYS: 1 key is shorter than 16 characters and ignored" },
      { name: "SLUICE_GATEWAY_KEYS", message: "SLUICE_GATEWAY_KEYS: 1 development key (dev-only-…) ignored outside wrangler dev" },
      { name: "SLUICE_CLIENT_AUTH", message: 'SLUICE_CLIENT_AUTH: must be "required", "off", "auto" or empty: treated as "required"' },
    ]);
    expect(JSON.stringify(c.problems)).not.toMatch(/not-a-hash|dev-only-gateway-key-1234|gw-aaaa/);
  });

  it("a development gateway key counts under wrangler dev", () => {
    expect(readClientAuthConfig({ ...DEV, SLUICE_GATEWAY_KEYS: "dev-only-gateway-key-1234" }).gatewayKeys).toEqual(["dev-only-gateway-key-1234"]);
  });
});

describe("secretProblem", () => {
  it("missing, development value outside development, usable", () => {
    expect([secretProblem({}, "K"), secretProblem({ K: "" }, "K"), secretProblem({ K: "dev-only-x" }, "K"), secretProblem({ K: "dev-only-x", ...DEV }, "K"), secretProblem({ K: "real" }, "K")])
      .toEqual(["missing", "missing", "development_value", null, null]);
    expect([usableSecret({ K: "dev-only-x" }, "K"), usableSecret({ K: "dev-only-x", ...DEV }, "K")]).toEqual([null, "dev-only-x"]);
  });
});
