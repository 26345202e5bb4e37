import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { afterAll } from "@effect/vitest"
import { FileStorageFs } from "@svc/adapters-fs"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { MaxFileBytes } from "@svc/domain"
import { type Effect, Layer } from "effect"
import { appEnv, inboundOver } from "../inbound/InboundSetup.ts"
import type { Client } from "../support/HttpScenarios.ts"
import { testConfig } from "../support/InProcessApp.ts"
import { clientOver, type RunningApp, withApp } from "../support/WebhooksHarness.ts"

const LIMIT = 1024 * 1024

/** A file store on disk for one test file (removed after it): the app's `FILE_STORAGE_DIR`. */
export const storeDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-user-files-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Every file and link in the store, by path under its root, in order. */
export const filesIn = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .toSorted()

/**
 * A suite over Postgres (a real server on `DATABASE_URL`, else the embedded one) whose apps and inbound worker keep
 * files in `dir` through the filesystem adapter.
 */
export const userFilesSuite = (dir: string) =>
  inboundOver(
    PortsPg.pipe(Layer.provideMerge(TestDatabase)),
    Layer.merge(FileStorageFs(dir), Layer.succeed(MaxFileBytes, LIMIT))
  )

/** The whole app served on a loopback port over the suite's ports, with its files in `dir`. */
export const withServedApp = <A, E, R>(dir: string, f: (client: Client, app: RunningApp) => Effect.Effect<A, E, R>) =>
  withApp(appEnv(), (app) => f(clientOver(app), app), { ...testConfig, fileStorageDir: dir, maxFileBytes: LIMIT })
