#!/usr/bin/env node
import { enableCompileCache } from "node:module"

// Each command is a fresh process that loads the whole contract; Node's compile cache makes the later ones start
// about a third faster. It is turned on before the imports it speeds up, hence the dynamic imports.
enableCompileCache()
const NodeRuntime = await import("@effect/platform-node/NodeRuntime")
const NodeServices = await import("@effect/platform-node/NodeServices")
const { Effect } = await import("effect")
const { cli } = await import("./Cli.ts")

cli.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
