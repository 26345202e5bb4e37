import { layer, type Vitest } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import type { Ports } from "@svc/api"
import { Layer } from "effect"

type Replays = (it: Vitest.MethodsNonLive<Ports>) => void

const options = { timeout: "120 seconds", excludeTestServices: true } as const

/** Runs the twin-client replays of one resource in memory and on Postgres, as the finance HTTP suites do. */
export const twinSuite = (resource: string, replays: Replays) => {
  layer(PortsMemory, options)(`${resource}: the twin's requests (memory)`, replays)
  layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)), options)(`${resource}: the twin's requests (Postgres)`, replays)
}
