import { writeFileSync } from "node:fs"
import { CHANGELOG, changelogMarkdown } from "@svc/adapters-http/api"

/** Writes CHANGELOG.md from the changelog entries that `GET /changelog` serves. */
writeFileSync(new URL("../CHANGELOG.md", import.meta.url), changelogMarkdown(CHANGELOG))
console.log("CHANGELOG.md written")
