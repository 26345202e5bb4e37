import { assert, describe, it } from "@effect/vitest"
import { parseVaultPath, storageKey, TeamId } from "@svc/domain"
import { Result } from "effect"

const team = "0190a3b4-0000-7000-8000-00000000f11e"

const parsed = (raw: string) => Result.map(parseVaultPath(raw), ({ teamId, key }) => ({ teamId, key }))
const refusal = (raw: string) =>
  Result.match(parseVaultPath(raw), { onSuccess: () => "accepted", onFailure: (e) => e.reason })

describe("vault paths", () => {
  it("reads a team's path with or without the vault/ prefix, as the same key", () => {
    const expected = { teamId: team, key: `vault/${team}/inbox/a b.pdf` }
    assert.deepStrictEqual(Result.getOrThrow(parsed(`${team}/inbox/a b.pdf`)), expected)
    assert.deepStrictEqual(Result.getOrThrow(parsed(`vault/${team}/inbox/a b.pdf`)), expected)
    assert.deepStrictEqual(Result.getOrThrow(parsed(`vault/${team}/inbox/a%20b.pdf`)), expected)
    assert.deepStrictEqual(Result.getOrThrow(parsed(`${team.toUpperCase()}/inbox/a b.pdf`)), expected)
  })

  it("refuses traversal, encoded once or twice, absolute paths, empty and odd segments, and paths without a team", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      [`${team}/../other/x`, "relative segment"],
      [`vault/${team}/..`, "relative segment"],
      [`${team}/%2e%2e/x`, "relative segment"],
      [`${team}/%252e%252E/x`, "relative segment"],
      [`${team}/docs/./x`, "relative segment"],
      [`${team}/..%2fsecret`, "relative segment"],
      [`/${team}/x`, "absolute path"],
      [`%2f${team}/x`, "absolute path"],
      [`/etc/passwd`, "absolute path"],
      [`${team}//x`, "empty segment"],
      [`${team}/x/`, "empty segment"],
      [`${team}/a\\..\\b`, "separator or control character in a segment"],
      [`${team}/a%00.pdf`, "separator or control character in a segment"],
      [`${team}`, "no file name"],
      [`vault/${team}`, "no file name"],
      [`vault/../${team}/x`, "no team id"],
      [`not-a-team/x`, "no team id"],
      [``, "no team id"],
      [`${team}/%E0%A4%A`, "malformed percent-encoding"],
      [`${team}/${"x".repeat(256)}`, "segment longer than 255 characters"]
    ]
    for (const [raw, reason] of cases) assert.strictEqual(refusal(raw), reason, raw)
  })

  it("a key built from segments lives in the team's folder; a segment that could escape is refused", () => {
    const teamId = TeamId.make(team)
    assert.strictEqual(Result.getOrThrow(storageKey(teamId, ["documents", "x.pdf"])), `vault/${team}/documents/x.pdf`)
    for (const bad of [[], [".."], ["a/b"], [""], ["a\u0000"]]) assert.isTrue(Result.isFailure(storageKey(teamId, bad)))
  })
})
