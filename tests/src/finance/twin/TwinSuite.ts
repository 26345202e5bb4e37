import { layer } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"

type It = Parameters<Parameters<ReturnType<typeof layer>>[1]>[0]

/** Runs the twin-client replays of one resource in memory and on Postgres, as the finance HTTP suites do. */
export const twinSuite = (resource: string, replays: (it: It) => void) => {
  layer(PortsMemory, { timeout: "120 seconds", excludeTestServices: true })(
    `${resource}: the twin's requests (memory)`,
    replays
  )
  layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)), { timeout: "120 seconds", excludeTestServices: true })(
    `${resource}: the twin's requests (Postgres)`,
    replays
  )
}
