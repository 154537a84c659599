import { describe, expect, it } from "vitest";
import { checkLocalHost } from "../../../src/config/check-local-address";

/** Runs a URL through WHATWG parsing first, as the schema does. */
const judge = (url: string) => checkLocalHost(new URL(url).hostname);

describe("checkLocalHost", () => {
  it("accepts loopback and private ranges and localhost", () => {
    const ok = ["http://127.0.0.1:8789/decide", "http://127.255.0.9/", "http://127.1/", "http://0x7f.0.0.1/", "http://[::1]:80/",
      "http://10.1.2.3/", "http://172.16.0.1/", "http://172.31.255.255/", "http://192.168.1.10/", "http://[fd12:3456::1]/",
      "http://[fc00::1]/", "http://LOCALHOST:9/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:10.0.0.1]/"];
    expect(ok.map(judge)).toEqual(ok.map(() => null));
  });

  it("refuses public literals, including the edges of each range", () => {
    const bad = ["http://8.8.8.8/", "http://172.15.255.255/", "http://172.32.0.1/", "http://192.169.0.1/", "http://11.0.0.1/",
      "http://0.0.0.0/", "http://169.254.169.254/", "http://[2606:4700::1111]/", "http://[fe80::1]/", "http://[fe00::1]/",
      "http://[::ffff:8.8.8.8]/", "http://[::]/", "http://[::2]/"];
    expect(bad.map(judge)).toEqual(bad.map(() => "public_address"));
  });

  it("refuses every hostname other than localhost", () => {
    const names = ["http://engine.internal/", "http://localhost.example.com/", "http://my.localhost/", "http://127.0.0.1.nip.io/"];
    expect(names.map(judge)).toEqual(names.map(() => "unknown_hostname"));
  });
});
