import { assert, describe, it } from "@effect/vitest"
import { signInSettings } from "@svc/api"
import { configFrom } from "../support/Session.ts"

describe("DASHBOARD_SIGN_UP", () => {
  it("lets anyone sign up unless set, and only the invited when set to invited", async () => {
    assert.strictEqual(signInSettings(await configFrom({})).signUp, "open")
    assert.strictEqual(signInSettings(await configFrom({ DASHBOARD_SIGN_UP: "invited" })).signUp, "invited")
  })

  it("refuses any other value at startup", async () => {
    for (const value of ["closed", "OPEN", "invite"]) {
      await configFrom({ DASHBOARD_SIGN_UP: value }).then(
        () => assert.fail(`${JSON.stringify(value)} was accepted`),
        () => undefined
      )
    }
  })
})
