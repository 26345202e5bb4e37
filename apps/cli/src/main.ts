#!/usr/bin/env node
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { cli } from "./Cli.ts"

cli.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
