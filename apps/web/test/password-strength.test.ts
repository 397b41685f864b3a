import { describe, expect, it } from "vitest";
import {
  PASSWORD_STRENGTH_PARTS,
  passwordChecks,
  passwordScore,
  passwordStrengthPercent,
} from "../src/lib/password-strength";

describe("password strength: five equal parts", () => {
  it("has exactly five rules", () => {
    expect(PASSWORD_STRENGTH_PARTS).toBe(5);
  });

  it.each([
    ["", 0],
    ["abc", 1], // lower
    ["abcdefgh", 2], // lower + length
    ["Abcdefgh", 3], // + upper
    ["Abcdefg1", 4], // + digit
    ["Abcdef1!", 5], // + special
    ["ABC", 1], // upper
    ["123", 1], // digit
    ["!!!", 1], // special
    ["aB1!", 4], // all but length
  ])("%j scores %i", (password, score) => {
    expect(passwordScore(password)).toBe(score);
  });

  it("names each rule it meets", () => {
    expect(passwordChecks("abcdefgh")).toEqual({
      length: true,
      lower: true,
      upper: false,
      digit: false,
      special: false,
    });
    expect(passwordChecks("Şifre.2024")).toEqual({
      length: true,
      lower: true,
      upper: true,
      digit: true,
      special: true,
    });
  });

  it("counts Turkish letters as letters, not symbols", () => {
    expect(passwordChecks("çğıöşü").special).toBe(false);
    expect(passwordChecks("çğıöşü").lower).toBe(true);
    expect(passwordChecks("ÇĞİÖŞÜ").upper).toBe(true);
  });

  it("gives each part an equal share of 100", () => {
    expect(passwordStrengthPercent("")).toBe(0);
    expect(passwordStrengthPercent("abc")).toBe(20);
    expect(passwordStrengthPercent("Abcdef1!")).toBe(100);
  });
});
