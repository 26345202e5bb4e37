import { describe, expect, it } from "@effect/vitest"
import { databaseConfig } from "@svc/api"
import { ConfigProvider, Effect, Exit } from "effect"

const read = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    Effect.gen(function* () {
      return yield* databaseConfig
    }).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))))
  )

describe("DATABASE_POOLER", () => {
  it("is none unless set: a direct connection keeps prepared statements and pipelining", async () => {
    const exit = await read({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres" })
    expect(Exit.isSuccess(exit) && exit.value.pooler).toBe("none")
  })

  it("is transaction behind a pooler in transaction pooling mode", async () => {
    const exit = await read({
      DATABASE_URL: "postgres://postgres@127.0.0.1:6432/postgres",
      DATABASE_POOLER: "transaction"
    })
    expect(Exit.isSuccess(exit) && exit.value.pooler).toBe("transaction")
  })

  it.each(["session", "statement", "TRANSACTION"])("refuses %j, naming the variable", async (value) => {
    const exit = await read({ DATABASE_POOLER: value })
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("DATABASE_POOLER")
  })
})
