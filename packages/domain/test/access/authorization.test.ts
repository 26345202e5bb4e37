import { assert, describe, it } from "@effect/vitest"
import { mayManageKeys, mayRevokeApiKey } from "../../src/access/Authorization.ts"
import type { Role } from "../../src/identity/index.ts"
import type { UserId } from "../../src/shared/index.ts"

const me = "00000000-0000-7000-8000-000000000001" as UserId
const someoneElse = "00000000-0000-7000-8000-000000000002" as UserId

describe("Authorization", () => {
  it("only owners and admins manage keys", () => {
    const table: ReadonlyArray<readonly [Role, boolean]> = [
      ["owner", true],
      ["admin", true],
      ["member", false]
    ]
    for (const [role, allowed] of table) assert.strictEqual(mayManageKeys(role), allowed, role)
  })

  it("owners and admins revoke any API key; members only their own", () => {
    const table: ReadonlyArray<readonly [Role, UserId, boolean]> = [
      ["owner", me, true],
      ["owner", someoneElse, true],
      ["admin", me, true],
      ["admin", someoneElse, true],
      ["member", me, true],
      ["member", someoneElse, false]
    ]
    for (const [role, createdBy, allowed] of table) {
      assert.strictEqual(mayRevokeApiKey({ userId: me, role }, { createdBy }), allowed, `${role} / ${createdBy}`)
    }
  })
})
