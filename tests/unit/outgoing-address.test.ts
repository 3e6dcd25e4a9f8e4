import { describe, expect, test } from "vitest";
import { isPublicAddress, parseAllowHosts, webhookUrlProblem } from "@/lib/http/outgoing-address";

describe("where an outgoing webhook may go", () => {
  test("only public addresses are public", () => {
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001::1"])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "0.0.0.0",
      "10.1.2.3",
      "100.64.0.1",
      "169.254.169.254",
      "172.31.255.255",
      "192.168.0.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:8.8.8.8",
      "64:ff9b::a9fe:a9fe",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      "2001:db8::1",
      "2002:7f00:1::",
      "not an address",
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  test("a URL is judged as the address it parses to; a listed host:port is the only exception", () => {
    expect(webhookUrlProblem("https://hooks.slack.com/services/T0/B0/x", [])).toBeNull();
    expect(webhookUrlProblem("https://8.8.8.8/x", [])).toBeNull();
    expect(webhookUrlProblem("http://hooks.slack.com/x", [])).toBe("Use the webhook's https:// address.");
    expect(webhookUrlProblem("https://localhost./x", [])).toMatch(/public address/);
    expect(webhookUrlProblem("https://2130706433/x", [])).toMatch(/public address/);
    expect(webhookUrlProblem("http://127.1:4684/x", ["127.0.0.1:4684"])).toBeNull();
    expect(webhookUrlProblem("http://127.0.0.1:4685/x", ["127.0.0.1:4684"])).toBe("Use the webhook's https:// address.");
    expect(webhookUrlProblem("http://127.0.0.1/x", ["127.0.0.1:80"])).toBeNull();
  });

  test("OUTGOING_WEBHOOK_ALLOW_HOSTS is host:port entries, spelled as a URL spells them", () => {
    expect(parseAllowHosts(undefined)).toEqual([]);
    expect(parseAllowHosts(" 127.1:4684, [::1]:80 ,Hooks.Test:8080")).toEqual(["127.0.0.1:4684", "[::1]:80", "hooks.test:8080"]);
    for (const bad of ["127.0.0.1", "http://127.0.0.1:4684", "127.0.0.1:99999", "a b:1", "user@host:1"])
      expect(parseAllowHosts(bad), bad).toBeNull();
  });
});
