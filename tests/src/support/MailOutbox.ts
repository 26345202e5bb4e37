import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert } from "@effect/vitest"

/** A directory the server writes its mail into (`MAIL_OUTBOX_DIR`), and a reader of what arrived. */
export const mailOutbox = async () => {
  const dir = await mkdtemp(join(tmpdir(), "svc-outbox-"))
  const messages = async () => {
    const names = (await readdir(dir)).filter((name) => name.endsWith(".json")).sort()
    return Promise.all(
      names.map(
        async (name) =>
          JSON.parse(await readFile(join(dir, name), "utf8")) as { to: string; subject: string; text: string }
      )
    )
  }
  /** The first capture of `pattern` in the newest mail to `to` that has it, waiting up to 15 s for it to arrive. */
  const waitFor = async (to: string, pattern: RegExp, after = 0) => {
    const deadline = Date.now() + 15_000
    for (;;) {
      const found = (await messages())
        .slice(after)
        .filter((m) => m.to === to)
        .map((m) => pattern.exec(m.text)?.[1])
        .findLast((match) => match !== undefined)
      if (found !== undefined) return found
      if (Date.now() > deadline) assert.fail(`no mail to ${to} matching ${pattern}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return { dir, messages, waitFor, remove: () => rm(dir, { recursive: true, force: true }) }
}
