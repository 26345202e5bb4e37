import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { InstallNoncesRepo } from "@svc/domain"
import { Effect, type Layer } from "effect"

/** A nonce of `purpose` used now and remembered until `keepUntil`. */
const nonceOf = (purpose: string, keepUntil = "2099-01-01T00:00:00.000Z") => ({
  purpose,
  nonce: crypto.randomUUID(),
  keepUntil,
  usedAt: "2026-11-28T09:00:00.000Z"
})

/** The used install nonces' repository, on every adapter: each nonce is consumed once, whoever races for it. */
export const installNoncesContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "60 seconds" })(`install nonces repository (${name})`, (it) => {
    it.effect("a nonce is consumed once; the same nonce of another install flow is another one", () =>
      Effect.gen(function* () {
        const repo = yield* InstallNoncesRepo
        const chat = nonceOf("chat-install-state")
        assert.isTrue(yield* repo.consume(chat))
        assert.isFalse(yield* repo.consume(chat))
        assert.isFalse(yield* repo.consume({ ...chat, usedAt: "2026-11-28T09:01:00.000Z" }))
        assert.isTrue(yield* repo.consume({ ...chat, purpose: "mail-install-state" }))
      })
    )

    it.effect("of concurrent consumers of one nonce, exactly one consumes it", () =>
      Effect.gen(function* () {
        const repo = yield* InstallNoncesRepo
        const nonce = nonceOf("chat-install-state")
        const results = yield* Effect.all(
          Array.from({ length: 16 }, () => repo.consume(nonce)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((consumed) => consumed).length, 1)
      })
    )

    it.effect("purging forgets the nonces kept until before the cutoff, and only those", () =>
      Effect.gen(function* () {
        const repo = yield* InstallNoncesRepo
        const lapsed = nonceOf("mail-install-state", "2026-11-28T09:10:00.000Z")
        const live = nonceOf("mail-install-state", "2026-11-28T09:30:00.000Z")
        yield* repo.consume(lapsed)
        yield* repo.consume(live)
        assert.isAtLeast(yield* repo.purgeBefore("2026-11-28T09:20:00.000Z"), 1)
        assert.isFalse(yield* repo.consume(live), "a nonce whose state may still be presented stays used")
        assert.isTrue(yield* repo.consume(lapsed), "a forgotten nonce belongs to a state that has expired")
      })
    )
  })
