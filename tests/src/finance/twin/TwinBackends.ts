import { layer } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import type { Ports } from "@svc/api"
import { Layer } from "effect"

type Suite = Parameters<ReturnType<typeof layer<Ports, never>>>[1]

/** Runs `suite` on the in-memory adapters, then on Postgres (real or embedded), named after the twin resource. */
export const onEachStore = (resource: string, suite: Suite) => {
  const options = { timeout: "120 seconds", excludeTestServices: true } as const
  const name = (store: string) => `${resource} as the twin's clients call it (${store})`
  layer(PortsMemory as Layer.Layer<Ports>, options)(name("memory"), suite)
  const postgres = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"
  layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)) as Layer.Layer<Ports>, options)(name(postgres), suite)
}
